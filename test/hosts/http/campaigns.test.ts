import test, { type ExecutionContext } from "ava";
import { CampaignDraftRepository } from "../../../core/migrations/ports.js";
import { createCompanyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { insertSendHistories } from "../../../fixtures/email-sends.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";
import { pacedCaller } from "../../helpers/paced-caller.js";

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
}

async function session(t: ExecutionContext, dialect: Dialect, api?: ApiFixture): Promise<Session> {
  const fixture = api ?? (await apiFixture(t, dialect));
  const company = await createCompanyFixture(fixture.runtime.container, { name: "Acme" });
  return { api: fixture, company, call: await pacedCaller(fixture, company) };
}

const BLOCKS = [
  { type: "heading", content: "Hello {{ firstName }}" },
  { type: "text", content: "Use {{ promoCode }} today." },
];
const FUTURE = "2026-11-23T09:00:00.000Z";
const ZERO_STATS = {
  sent: 0,
  delivered: 0,
  bounced: 0,
  opened: 0,
  clicked: 0,
  replies: 0,
  complaints: 0,
  unsubscribed: 0,
  deliveryRate: 0,
  bounceRate: 0,
  openRate: 0,
  clickRate: 0,
  replyRate: 0,
  complaintRate: 0,
  unsubscribeRate: 0,
  rateDenominator: 0,
  rateDenominatorBasis: "sent",
};

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("the official client's scenario: create, get, list, render, schedule, unschedule, duplicate, delete"), async (t) => {
    const s = await session(t, dialect);
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "Newsletter" } })).body.list;
    const created = await s.call("POST", "/api/v1/campaigns", {
      body: { name: "November news", subject: "News for {{ firstName }}", previewText: "What's new", blocks: BLOCKS, listIds: [list.id] },
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    const campaign = created.body.campaign;
    t.regex(campaign.id, /^cmp_/);
    t.deepEqual(campaign, {
      id: campaign.id,
      name: "November news",
      subject: "News for {{ firstName }}",
      previewText: "What's new",
      status: "draft",
      type: "email",
      emailId: null,
      emailPreset: null,
      labels: [],
      trackingCode: null,
      rejectionComment: null,
      scheduledAt: null,
      scheduledTimezone: null,
      sendInRecipientTimezone: false,
      sendTimeOptimization: false,
      sendTimeWindowHours: null,
      spreadOverHours: null,
      recurringInterval: null,
      previousOccurrenceId: null,
      pauseReason: null,
      sentAt: null,
      source: null,
      createdAt: "2026-11-22T10:00:00.000Z",
      updatedAt: "2026-11-22T10:00:00.000Z",
      html: null,
      blocks: BLOCKS,
      targetLists: { type: "lists", listIds: [list.id] },
      computedLists: [],
      campaignData: {},
      shareUrl: null,
      senderProfileId: null,
      fromEmail: null,
      fromName: null,
      replyProfileId: null,
      replyTo: null,
      replyToName: null,
      ccEmails: [],
      bccEmails: [],
      maxRecipients: null,
      stats: ZERO_STATS,
      progress: null,
    });
    t.deepEqual((await s.call("GET", `/api/v1/campaigns/${campaign.id}`)).body, { success: true, campaign });

    const listed = await s.call("GET", "/api/v1/campaigns");
    t.deepEqual(listed.body.pagination, { limit: 50, offset: 0, count: 1, total: 1, hasMore: false });
    t.is(listed.body.campaigns[0].id, campaign.id);
    t.false("blocks" in listed.body.campaigns[0], "the list shows summaries");

    const rendered = await s.call("POST", `/api/v1/campaigns/${campaign.id}/render`, { body: { subscriber: { email: "ann@example.com", firstName: "Ann" } } });
    t.is(rendered.status, 200);
    t.is(rendered.body.subject, "News for Ann");
    t.true(rendered.body.html.includes("Hello Ann"));
    t.like(rendered.body, { locale: "default", personalized: true, trackingApplied: false, entity: { type: "campaign", id: campaign.id, variantId: null } });
    t.deepEqual(rendered.body.unresolvedMergeTags, [{ tag: "promoCode", reason: "unknown" }]);

    const scheduled = await s.call("POST", `/api/v1/campaigns/${campaign.id}/schedule`, { body: { scheduledAt: FUTURE } });
    t.is(scheduled.status, 200, JSON.stringify(scheduled.body));
    t.is(scheduled.body.scheduledAt, FUTURE);
    t.like(scheduled.body.campaign, { status: "scheduled", scheduledAt: FUTURE });

    const edit = await s.call("PUT", `/api/v1/campaigns/${campaign.id}`, { body: { name: "Renamed" } });
    t.deepEqual(
      [edit.status, edit.body],
      [
        400,
        {
          success: false,
          error: "Campaign is scheduled: only draft campaigns can be edited (unschedule it first)",
          code: "INVALID_CAMPAIGN_STATE",
          status: "scheduled",
        },
      ],
    );
    const deleteScheduled = await s.call("DELETE", `/api/v1/campaigns/${campaign.id}`);
    t.deepEqual([deleteScheduled.status, deleteScheduled.body.status], [400, "scheduled"]);

    const unscheduled = await s.call("POST", `/api/v1/campaigns/${campaign.id}/unschedule`);
    t.is(unscheduled.status, 200);
    t.like(unscheduled.body.campaign, { status: "draft", scheduledAt: null });
    const again = await s.call("POST", `/api/v1/campaigns/${campaign.id}/unschedule`);
    t.deepEqual([again.status, again.body.error], [400, "Campaign is draft: only scheduled campaigns can be unscheduled"]);

    const duplicate = await s.call("POST", `/api/v1/campaigns/${campaign.id}/duplicate`);
    t.is(duplicate.status, 200);
    t.like(duplicate.body.campaign, { name: "November news (copy)", status: "draft", blocks: BLOCKS, targetLists: { type: "lists", listIds: [list.id] } });
    t.not(duplicate.body.campaign.id, campaign.id);

    const deleted = await s.call("DELETE", `/api/v1/campaigns/${duplicate.body.campaign.id}`);
    t.deepEqual(deleted.body, { success: true, campaignId: duplicate.body.campaign.id });
    t.is((await s.call("GET", `/api/v1/campaigns/${duplicate.body.campaign.id}`)).status, 404);
  });

  test(name("content comes from html, blocks or a template; prompt, two sources and bad fields are refused and store nothing"), async (t) => {
    const s = await session(t, dialect);
    const post = (body: unknown) => s.call("POST", "/api/v1/campaigns", { body });
    const html = await post({
      name: "Raw",
      subject: "Hi",
      html: "<p>Hi</p>",
      labels: ["promo", "promo"],
      trackingCode: "nov",
      campaignData: { promoCode: "SAVE10" },
    });
    t.like(html.body.campaign, { html: "<p>Hi</p>", blocks: null, labels: ["promo"], trackingCode: "nov", campaignData: { promoCode: "SAVE10" } });

    const template = (await s.call("POST", "/api/v1/templates", { body: { name: "Tpl", subject: "From template", previewText: "pre", blocks: BLOCKS } })).body
      .template;
    const fromTemplate = await post({ name: "From tpl", templateId: template.id });
    t.like(fromTemplate.body.campaign, { subject: "From template", previewText: "pre", blocks: BLOCKS });
    const otherSubject = await post({ name: "From tpl 2", templateId: template.id, subject: "Own subject" });
    t.is(otherSubject.body.campaign.subject, "Own subject");

    const cases: Array<[unknown, number, string]> = [
      [{ name: "x", prompt: "Write a newsletter" }, 400, "AI generation (prompt) is not available on this server: provide the content as html or blocks"],
      [{ name: "x", subject: "s", html: "<p>x</p>", blocks: BLOCKS }, 400, "Provide at most one of html, blocks, templateId and prompt"],
      [{ name: "x", subject: "s", blocks: [] }, 400, "blocks must contain at least one block"],
      [{ name: "x" }, 422, "Invalid request: subject is required"],
      [{ subject: "s" }, 422, "Invalid request: name is required"],
      [{ name: "x", subject: "s", templateId: "tpl_missing" }, 404, "Template not found"],
      [{ name: "x", subject: "s", listIds: ["list_missing"] }, 400, "The audience names lists that do not exist: list_missing"],
      [{ name: "x", subject: "s", listIds: ["a"], segmentId: "b" }, 400, "Provide only one of segmentId, listIds and targetLists"],
      [
        { name: "x", subject: "s", targetLists: { type: "everyone" } },
        422,
        "Invalid request: targetLists.type must be one of: all, lists, segment, filtered, rules",
      ],
      [{ name: "x", subject: "s", targetLists: { type: "rules", include: [] } }, 400, "targetLists of type rules needs at least one include rule"],
      [
        { name: "x", subject: "s", targetLists: { type: "rules", include: [{ type: "all" }], exclude: [{ type: "all" }] } },
        400,
        'targetLists.exclude cannot hold {type:"all"}: it would leave nobody',
      ],
      [{ name: "x", subject: "s", senderProfileId: "sp_missing" }, 400, "Sender profile not found: sp_missing"],
      [{ name: "x", subject: "s", senderProfileId: "sp_1", fromEmail: "a@example.com" }, 400, "Provide senderProfileId or fromEmail and fromName, not both"],
      [
        { name: "x", subject: "s", computedLists: [{ key: "products", source: "products" }] },
        400,
        'computedLists.0.source: campaignData has no array "products"',
      ],
      [
        { name: "x", subject: "s", campaignData: { items: Array.from({ length: 501 }, (_, i) => i) } },
        422,
        "Invalid request: campaignData arrays must hold at most 500 items",
      ],
      [{ name: "x", subject: "s", fromEmail: "not-an-address" }, 422, "Invalid request: fromEmail must be a valid email address"],
    ];
    for (const [body, status, error] of cases) {
      const answer = await post(body);
      t.deepEqual([answer.status, answer.body.success, answer.body.error], [status, false, error], JSON.stringify(body));
    }
    t.is((await s.call("GET", "/api/v1/campaigns")).body.pagination.total, 3, "no refused create stored anything");

    const identity = await post({ name: "From", subject: "s", html: "<p>x</p>", fromEmail: "News@Example.com", fromName: "News", replyTo: "help@example.com" });
    t.like(identity.body.campaign, { fromEmail: "news@example.com", fromName: "News", replyTo: "help@example.com", senderProfileId: null });
  });

  test(name("PUT edits drafts only, ignores campaignId/companyId in the body, clears with null and refuses nothing-to-change"), async (t) => {
    const s = await session(t, dialect);
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "VIP" } })).body.list;
    const draft = (
      await s.call("POST", "/api/v1/campaigns", { body: { name: "Draft", subject: "s", html: "<p>x</p>", listIds: [list.id], trackingCode: "t1" } })
    ).body.campaign;
    s.api.clock.advance(1000);
    const put = await s.call("PUT", `/api/v1/campaigns/${draft.id}`, {
      body: { campaignId: "cmp_other", companyId: "co_other", subject: "New subject", blocks: BLOCKS, targetLists: null, trackingCode: "", labels: ["a"] },
    });
    t.is(put.status, 200, JSON.stringify(put.body));
    t.like(put.body.campaign, { id: draft.id, subject: "New subject", html: null, blocks: BLOCKS, targetLists: null, trackingCode: null, labels: ["a"] });
    t.is(put.body.campaign.updatedAt, "2026-11-22T10:00:01.000Z");
    const nothing = await s.call("PUT", `/api/v1/campaigns/${draft.id}`, { body: { campaignId: draft.id, companyId: s.company.companyId } });
    t.deepEqual([nothing.status, nothing.body.error], [400, "No supported fields provided"]);
    const prompt = await s.call("PUT", `/api/v1/campaigns/${draft.id}`, { body: { prompt: "rewrite" } });
    t.is(prompt.status, 400);
    t.is((await s.call("GET", `/api/v1/campaigns/${draft.id}`)).body.campaign.subject, "New subject", "a refused PUT changed nothing");
    t.is((await s.call("PUT", "/api/v1/campaigns/cmp_missing", { body: { name: "x" } })).status, 404);
  });

  test(name("list filters by status and label with compat offset pagination; bad queries are 422"), async (t) => {
    const s = await session(t, dialect);
    const ids: string[] = [];
    for (const [index, labels] of [["a"], ["b"], ["a", "b"]].entries()) {
      s.api.clock.advance(1000);
      ids.push((await s.call("POST", "/api/v1/campaigns", { body: { name: `C${index}`, subject: "s", html: "<p>x</p>", labels } })).body.campaign.id);
    }
    await s.call("POST", `/api/v1/campaigns/${ids[0]}/schedule`, { body: { scheduledAt: FUTURE } });
    const page = await s.call("GET", "/api/v1/campaigns?limit=2&offset=0");
    t.deepEqual(
      [page.body.campaigns.map((c: { id: string }) => c.id), page.body.pagination],
      [[ids[2], ids[1]], { limit: 2, offset: 0, count: 2, total: 3, hasMore: true }],
    );
    t.deepEqual(
      (await s.call("GET", "/api/v1/campaigns?label=a")).body.campaigns.map((c: { id: string }) => c.id),
      [ids[2], ids[0]],
    );
    const scheduled = await s.call("GET", "/api/v1/campaigns?status=scheduled");
    t.deepEqual([scheduled.body.campaigns.map((c: { id: string }) => c.id), scheduled.body.pagination.total], [[ids[0]], 1]);
    for (const [query, path] of [
      ["status=archived", "status"],
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["offset=-1", "offset"],
    ] as const) {
      const bad = await s.call("GET", `/api/v1/campaigns?${query}`);
      t.deepEqual([bad.status, bad.body.success, bad.body.errors[0].path], [422, false, path], query);
    }
  });

  test(
    name("audience: recipientCount leaves out unsubscribed, bounced, suppressed, unconfirmed and excluded contacts; deleted lists show as missing"),
    async (t) => {
      const s = await session(t, dialect);
      const knex = s.api.runtime.knex;
      const newsletter = (await s.call("POST", "/api/v1/lists", { body: { name: "Newsletter" } })).body.list;
      const staff = (await s.call("POST", "/api/v1/lists", { body: { name: "Staff" } })).body.list;
      const emails = ["ok1@example.com", "ok2@example.com", "gone@example.com", "bounced@example.com", "suppressed@example.com", "staff@example.com"];
      for (const email of emails) await s.call("POST", "/api/v1/subscribers", { body: { email, lists: [newsletter.id] } });
      await s.call("POST", "/api/v1/subscribers", { body: { email: "unconfirmed@example.com", lists: [newsletter.id], optInMode: "double_opt_in" } });
      await s.call("POST", "/api/v1/subscribers", { body: { email: "outside@example.com" } });
      await s.call("PATCH", "/api/v1/subscribers/gone@example.com", { body: { status: "unsubscribed" } });
      await knex("subscribers").where({ company_id: s.company.companyId, email: "bounced@example.com" }).update({ status: "bounced" });
      await knex("suppressions").insert({
        id: "sup_test",
        company_id: s.company.companyId,
        email: "suppressed@example.com",
        reason: "manual",
        created_at: new Date().toISOString(),
      });
      await s.call("POST", `/api/v1/lists/${staff.id}/subscribers`, { body: { emails: ["staff@example.com"] } });

      const campaign = (
        await s.call("POST", "/api/v1/campaigns", {
          body: {
            name: "News",
            subject: "s",
            html: "<p>x</p>",
            targetLists: { type: "rules", include: [{ type: "lists", listIds: [newsletter.id] }], exclude: [{ type: "lists", listIds: [staff.id] }] },
          },
        })
      ).body.campaign;
      const audience = await s.call("GET", `/api/v1/campaigns/${campaign.id}/audience`);
      t.is(audience.status, 200, JSON.stringify(audience.body));
      t.deepEqual(audience.body, {
        success: true,
        campaignId: campaign.id,
        campaignName: "News",
        status: "draft",
        audience: {
          type: "rules",
          summary: "List Newsletter, excluding list Staff",
          isUnset: false,
          lists: [
            { id: newsletter.id, name: "Newsletter", missing: false },
            { id: staff.id, name: "Staff", missing: false },
          ],
          segments: [],
          filters: [],
          include: [{ type: "lists", listIds: [newsletter.id] }],
          exclude: [{ type: "lists", listIds: [staff.id] }],
        },
        recipientCount: 2,
        targetLists: campaign.targetLists,
      });

      // A filtered exclude rule leaves out exactly the contacts its filters match.
      await s.call("PUT", `/api/v1/campaigns/${campaign.id}`, {
        body: {
          targetLists: {
            type: "rules",
            include: [{ type: "all" }],
            exclude: [{ type: "filtered", filters: [{ field: "email", operator: "contains", value: "ok1" }] }],
          },
        },
      });
      const filtered = (await s.call("GET", `/api/v1/campaigns/${campaign.id}/audience`)).body;
      t.deepEqual(
        [filtered.recipientCount, filtered.audience.summary],
        [3, "All active subscribers, excluding contacts matching 1 filter"],
        "ok2, staff and outside",
      );

      const unset = await s.call("PUT", `/api/v1/campaigns/${campaign.id}`, { body: { targetLists: null } });
      t.is(unset.status, 200);
      const everyone = (await s.call("GET", `/api/v1/campaigns/${campaign.id}/audience`)).body;
      t.like(everyone, { recipientCount: 4, targetLists: null, audience: { type: "all", isUnset: true, summary: "No audience set: all active subscribers" } });

      await s.call("PUT", `/api/v1/campaigns/${campaign.id}`, { body: { listIds: [staff.id] } });
      await s.call("DELETE", `/api/v1/lists/${staff.id}`);
      const missing = (await s.call("GET", `/api/v1/campaigns/${campaign.id}/audience`)).body;
      t.like(missing, { recipientCount: 0, audience: { lists: [{ id: staff.id, name: null, missing: true }] } });
      const schedule = await s.call("POST", `/api/v1/campaigns/${campaign.id}/schedule`, { body: { scheduledAt: FUTURE } });
      t.deepEqual([schedule.status, schedule.body.error], [400, `The audience names lists that do not exist: ${staff.id}`]);
    },
  );

  test(name("schedule validates its body and the campaign's requirements, stores the options, and cancel is final"), async (t) => {
    const s = await session(t, dialect);
    const empty = (await s.call("POST", "/api/v1/campaigns", { body: { name: "Empty", subject: "s" } })).body.campaign;
    const noContent = await s.call("POST", `/api/v1/campaigns/${empty.id}/schedule`, { body: { scheduledAt: FUTURE } });
    t.deepEqual([noContent.status, noContent.body.error], [400, "Campaign cannot be scheduled: it needs content (html or at least one block)"]);

    const ready = (await s.call("POST", "/api/v1/campaigns", { body: { name: "Ready", subject: "s", blocks: BLOCKS } })).body.campaign;
    const schedule = (body: unknown) => s.call("POST", `/api/v1/campaigns/${ready.id}/schedule`, { body });
    const cases: Array<[unknown, number, string]> = [
      [{}, 422, "Invalid request: scheduledAt is required"],
      [{ scheduledAt: "tomorrow" }, 422, "Invalid request: scheduledAt must be an ISO 8601 timestamp"],
      [{ scheduledAt: "2026-11-22T09:58:59.000Z" }, 400, "scheduledAt must be in the future"],
      [{ scheduledAt: FUTURE, spreadOverHours: 0 }, 422, "Invalid request: spreadOverHours must be between 1 and 72"],
      [{ scheduledAt: FUTURE, spreadOverHours: 73 }, 422, "Invalid request: spreadOverHours must be between 1 and 72"],
      [{ scheduledAt: FUTURE, sendInRecipientTimezone: true }, 400, "sendInRecipientTimezone needs scheduledTimezone (an IANA timezone)"],
      [{ scheduledAt: FUTURE, scheduledTimezone: "Mars/Olympus" }, 400, "scheduledTimezone must be an IANA timezone such as Europe/Paris"],
      [
        { scheduledAt: FUTURE, sendInRecipientTimezone: true, scheduledTimezone: "Europe/Paris", recurringInterval: "weekly" },
        400,
        "sendInRecipientTimezone cannot be combined with recurringInterval or spreadOverHours",
      ],
      [{ scheduledAt: FUTURE, recurringInterval: "daily" }, 422, "Invalid request: recurringInterval must be one of: weekly, monthly"],
    ];
    for (const [body, status, error] of cases) {
      const answer = await schedule(body);
      t.deepEqual([answer.status, answer.body.error], [status, error], JSON.stringify(body));
    }
    t.is((await s.call("GET", `/api/v1/campaigns/${ready.id}`)).body.campaign.status, "draft", "refused schedules changed nothing");

    const timezone = await schedule({ scheduledAt: FUTURE, sendInRecipientTimezone: true, scheduledTimezone: "Europe/Paris" });
    t.like(timezone.body.campaign, { status: "scheduled", sendInRecipientTimezone: true, scheduledTimezone: "Europe/Paris", recurringInterval: null });
    const spread = await schedule({ scheduledAt: FUTURE, spreadOverHours: 6, sendTimeOptimization: true, recurringInterval: "monthly" });
    t.like(spread.body.campaign, { spreadOverHours: 6, sendTimeOptimization: false, recurringInterval: "monthly", sendInRecipientTimezone: false });
    t.like((await s.call("GET", `/api/v1/campaigns/${ready.id}`)).body.campaign, { status: "scheduled", spreadOverHours: 6, recurringInterval: "monthly" });

    const cancelled = await s.call("POST", `/api/v1/campaigns/${ready.id}/cancel`);
    t.like(cancelled.body.campaign, { status: "cancelled" });
    for (const move of ["cancel", "unschedule", "schedule"]) {
      const answer = await s.call("POST", `/api/v1/campaigns/${ready.id}/${move}`, { body: { scheduledAt: FUTURE } });
      t.deepEqual([answer.status, answer.body.status], [400, "cancelled"], move);
      t.true(answer.body.error.startsWith("Campaign is cancelled: "), answer.body.error);
    }
    const draftCancel = await s.call("POST", `/api/v1/campaigns/${empty.id}/cancel`);
    t.deepEqual([draftCancel.status, draftCancel.body.error], [400, "Campaign is draft: only scheduled, sending or paused campaigns can be cancelled"]);
    t.is((await s.call("DELETE", `/api/v1/campaigns/${ready.id}`)).status, 200, "a cancelled campaign can be deleted");
  });

  test(name("stats come from the campaign's sends, test sends left out; preview-computed-data resolves variables"), async (t) => {
    const s = await session(t, dialect);
    const knex = s.api.runtime.knex;
    const campaign = (
      await s.call("POST", "/api/v1/campaigns", {
        body: { name: "Sent", subject: "s", html: "<p>{{ promoCode }}</p>", campaignData: { promoCode: "SAVE10", firstName: "Nobody" } },
      })
    ).body.campaign;
    const at = new Date("2026-11-21T10:00:00.000Z");
    await insertSendHistories(knex, s.company.companyId, [
      {
        id: "send_a",
        sentAt: at,
        emailType: "campaign",
        events: [
          { type: "delivery", at },
          { type: "open", at },
        ],
      },
      { id: "send_b", sentAt: at, emailType: "campaign", events: [{ type: "delivery", at }] },
      {
        id: "send_test",
        sentAt: at,
        emailType: "campaign",
        isTest: true,
        events: [
          { type: "delivery", at },
          { type: "open", at },
        ],
      },
    ]);
    await knex("email_sends").whereIn("id", ["send_a", "send_b", "send_test"]).update({ campaign_id: campaign.id });
    const stats = (await s.call("GET", `/api/v1/campaigns/${campaign.id}`)).body.campaign.stats;
    t.like(stats, { sent: 2, delivered: 2, opened: 1, openRate: 50, rateDenominatorBasis: "delivered" });

    const contact = (await s.call("POST", "/api/v1/subscribers", { body: { email: "ann@example.com", firstName: "Ann", customAttributes: { plan: "pro" } } }))
      .body.subscriber;
    const computed = await s.call("POST", `/api/v1/campaigns/${campaign.id}/preview-computed-data`, { body: { subscriberId: contact.id } });
    t.is(computed.status, 200);
    t.like(computed.body, { success: true, lists: [], variables: { promoCode: "SAVE10", firstName: "Ann", plan: "pro", email: "ann@example.com" } });
    const inline = await s.call("POST", `/api/v1/campaigns/${campaign.id}/preview-computed-data`, {
      body: { subscriber: { email: "bob@example.com", customAttributes: { plan: "free" } } },
    });
    t.like(inline.body.variables, { email: "bob@example.com", plan: "free", promoCode: "SAVE10" });
    const neither = await s.call("POST", `/api/v1/campaigns/${campaign.id}/preview-computed-data`, { body: {} });
    t.deepEqual([neither.status, neither.body], [400, { success: false, error: "Provide subscriberId or subscriber." }]);
    const missing = await s.call("POST", "/api/v1/campaigns/cmp_missing/preview-computed-data", { body: { subscriberId: contact.id } });
    t.deepEqual([missing.status, missing.body.error], [404, "Campaign not found"]);
  });

  test(name("drafts imported by a migration are ordinary drafts: read, listed, edited, scheduled"), async (t) => {
    const s = await session(t, dialect);
    const drafts = s.api.runtime.container.get<CampaignDraftRepository>(CampaignDraftRepository);
    await drafts.insert({
      id: "cmp_imported",
      companyId: s.company.companyId,
      name: "Mailchimp spring sale",
      subject: null,
      previewText: "Spring",
      html: "<p>Spring sale</p>",
      source: "mailchimp",
      externalId: "mc-123",
      createdAt: new Date("2026-11-01T00:00:00.000Z"),
    });
    const got = await s.call("GET", "/api/v1/campaigns/cmp_imported");
    t.is(got.status, 200, JSON.stringify(got.body));
    t.like(got.body.campaign, {
      name: "Mailchimp spring sale",
      status: "draft",
      source: "mailchimp",
      subject: null,
      html: "<p>Spring sale</p>",
      labels: [],
      targetLists: null,
      campaignData: {},
      stats: ZERO_STATS,
    });
    t.deepEqual(
      (await s.call("GET", "/api/v1/campaigns")).body.campaigns.map((c: { id: string }) => c.id),
      ["cmp_imported"],
    );
    const noSubject = await s.call("POST", "/api/v1/campaigns/cmp_imported/schedule", { body: { scheduledAt: FUTURE } });
    t.deepEqual([noSubject.status, noSubject.body.error], [400, "Campaign cannot be scheduled: it needs a subject"]);
    const edited = await s.call("PUT", "/api/v1/campaigns/cmp_imported", { body: { subject: "Spring is here" } });
    t.like(edited.body.campaign, { subject: "Spring is here", html: "<p>Spring sale</p>", source: "mailchimp" });
    t.is((await s.call("POST", "/api/v1/campaigns/cmp_imported/schedule", { body: { scheduledAt: FUTURE } })).status, 200);
  });

  test(name("tenant isolation: another company's campaigns are 404 and its lists and segments are refused"), async (t) => {
    const s = await session(t, dialect);
    const other = await session(t, dialect, s.api);
    const theirList = (await other.call("POST", "/api/v1/lists", { body: { name: "Theirs" } })).body.list;
    const theirSegment = (
      await other.call("POST", "/api/v1/segments", { body: { name: "Theirs", filters: [{ field: "status", operator: "is", value: "active" }] } })
    ).body.segment;
    const theirs = (await other.call("POST", "/api/v1/campaigns", { body: { name: "Theirs", subject: "s", html: "<p>x</p>" } })).body.campaign;

    for (const [method, path, body] of [
      ["GET", `/api/v1/campaigns/${theirs.id}`, undefined],
      ["PUT", `/api/v1/campaigns/${theirs.id}`, { name: "Mine" }],
      ["DELETE", `/api/v1/campaigns/${theirs.id}`, undefined],
      ["GET", `/api/v1/campaigns/${theirs.id}/audience`, undefined],
      ["POST", `/api/v1/campaigns/${theirs.id}/duplicate`, {}],
      ["POST", `/api/v1/campaigns/${theirs.id}/render`, {}],
      ["POST", `/api/v1/campaigns/${theirs.id}/schedule`, { scheduledAt: FUTURE }],
      ["POST", `/api/v1/campaigns/${theirs.id}/cancel`, undefined],
    ] as const) {
      const answer = await s.call(method, path, body ? { body } : {});
      t.deepEqual([answer.status, answer.body], [404, { success: false, error: "Campaign not found" }], `${method} ${path}`);
    }
    t.deepEqual((await s.call("GET", "/api/v1/campaigns")).body.campaigns, []);
    t.like((await other.call("GET", `/api/v1/campaigns/${theirs.id}`)).body.campaign, { name: "Theirs", status: "draft" }, "untouched");

    const withList = await s.call("POST", "/api/v1/campaigns", { body: { name: "x", subject: "s", listIds: [theirList.id] } });
    t.deepEqual([withList.status, withList.body.error], [400, `The audience names lists that do not exist: ${theirList.id}`]);
    const withSegment = await s.call("POST", "/api/v1/campaigns", { body: { name: "x", subject: "s", segmentId: theirSegment.id } });
    t.deepEqual([withSegment.status, withSegment.body.error], [400, `The audience names segments that do not exist: ${theirSegment.id}`]);
  });
}
