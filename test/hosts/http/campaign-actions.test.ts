import test from "ava";
import { createCompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { insertContactRows } from "../../helpers/contact-rows.js";
import { dialects } from "../../helpers/databases.js";
import { pacedCaller } from "../../helpers/paced-caller.js";
import { BASE_URL } from "../../helpers/runtime.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const hoursAgo = (hours: number): Date => new Date(NOW.getTime() - hours * 3_600_000);

/** The public page, fetched as a browser would: no key. */
async function page(api: ApiFixture, shareUrl: string): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(`${api.server.url}${new URL(shareUrl).pathname}`);
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const SALE = {
  name: "Spring sale",
  subject: "Spring sale for {{ firstName }}",
  blocks: [
    { type: "heading", content: "Hello {{ firstName }}" },
    { type: "text", content: "Use {{ promoCode }} at checkout." },
    { type: "button", text: "Shop", url: "https://acme.test/shop" },
  ],
  campaignData: { promoCode: "SPRING25" },
};

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("a campaign is shared once through a signed public URL, shown to anyone with it, and revoked at once"), async (t) => {
    const api = await apiFixture(t, dialect);
    const company = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const other = await createCompanyFixture(api.runtime.container, { name: "Other" });
    const call = await pacedCaller(api, company);
    const campaign = (await call("POST", "/api/v1/campaigns", { body: SALE })).body.campaign;
    const path = `/api/v1/campaigns/${campaign.id}/share-link`;

    const shared = await call("POST", path);
    t.is(shared.status, 200, JSON.stringify(shared.body));
    const { shareUrl, shareToken } = shared.body;
    t.deepEqual(shared.body, { success: true, campaignId: campaign.id, shareUrl: `${BASE_URL}/share/campaigns/${shareToken}`, shareToken, created: true });
    t.regex(shareToken, /^[\w-]+\.[\w-]+$/, "a signed token");
    t.deepEqual((await call("POST", path)).body, { ...shared.body, created: false }, "idempotent: the same URL");
    t.is((await call("GET", `/api/v1/campaigns/${campaign.id}`)).body.campaign.shareUrl, shareUrl);

    const shown = await page(api, shareUrl);
    t.is(shown.status, 200);
    t.regex(shown.headers.get("content-type") ?? "", /^text\/html/);
    t.is(shown.headers.get("cache-control"), "no-store");
    t.regex(shown.headers.get("content-security-policy") ?? "", /sandbox/);
    t.true(shown.text.includes("Hello Jane"), "rendered for the sample contact");
    t.true(shown.text.includes("SPRING25"), "with the campaign's data");
    t.true(shown.text.includes("https://acme.test/shop"), "links go straight to their destination");
    t.false(shown.text.includes("/t/o/") || shown.text.includes("/t/c/"), "no tracking");
    // A token altered or signed for nothing is not found.
    const [body, mac] = shareToken.split(".");
    t.is((await page(api, `${BASE_URL}/share/campaigns/${body}A.${mac}`)).status, 404);
    t.is((await page(api, `${BASE_URL}/share/campaigns/not-a-token`)).status, 404);

    // Another company can neither share nor revoke it.
    t.is((await api.call("POST", path, { key: other.ownerKey })).status, 404);
    t.deepEqual((await api.call("DELETE", path, { key: other.ownerKey })).body, { success: false, error: "Campaign not found" });
    t.is((await page(api, shareUrl)).status, 200);

    const revoked = await call("DELETE", path);
    t.deepEqual(revoked.body, { success: true, campaignId: campaign.id, revoked: true });
    t.is((await page(api, shareUrl)).status, 404, "revoked at once");
    t.is((await call("GET", `/api/v1/campaigns/${campaign.id}`)).body.campaign.shareUrl, null);
    t.deepEqual((await call("DELETE", path)).body, { success: true, campaignId: campaign.id, revoked: false });

    const reshared = await call("POST", path);
    t.like(reshared.body, { created: true });
    t.not(reshared.body.shareUrl, shareUrl, "a new URL: copies of the old one stay dead");
    t.is((await page(api, shareUrl)).status, 404);
    t.is((await page(api, reshared.body.shareUrl)).status, 200);

    // A deleted campaign's link goes with it.
    t.is((await call("DELETE", `/api/v1/campaigns/${campaign.id}`)).status, 200);
    t.is((await page(api, reshared.body.shareUrl)).status, 404);
    t.is((await call("POST", path)).status, 404);
  });

  test(name("resend to non-openers: a draft for those who did not open, only 6 hours after the send finished"), async (t) => {
    const api = await apiFixture(t, dialect);
    api.clock.set(NOW);
    const company = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const other = await createCompanyFixture(api.runtime.container, { name: "Other" });
    const call = await pacedCaller(api, company);
    const campaign = (await call("POST", "/api/v1/campaigns", { body: { ...SALE, labels: ["spring"] } })).body.campaign;
    const path = `/api/v1/campaigns/${campaign.id}/resend-to-non-openers`;

    const draft = await call("POST", path);
    t.deepEqual(
      [draft.status, draft.body],
      [400, { success: false, error: "Campaign is draft: only a sent campaign can be resent to non-openers", code: "INVALID_CAMPAIGN_STATE", status: "draft" }],
    );

    // The send finished 5 hours ago: Ann opened, Bob did not, a scanner opened Cy's, Dee unsubscribed since, Eve was not sent it.
    const sentAt = hoursAgo(5);
    await api.runtime.knex("campaigns").where({ id: campaign.id }).update({ status: "sent", sent_at: sentAt.toISOString() });
    const sent = { campaignId: campaign.id, sentAt, deliveredAt: sentAt };
    await insertContactRows(api.runtime.knex, company.companyId, [
      { id: "sub_ann", email: "ann@example.com", createdAt: hoursAgo(100), sends: [{ ...sent, firstHumanOpenedAt: hoursAgo(4) }] },
      { id: "sub_bob", email: "bob@example.com", createdAt: hoursAgo(100), sends: [sent, { ...sent, isTest: true, firstHumanOpenedAt: hoursAgo(4) }] },
      { id: "sub_cy", email: "cy@example.com", createdAt: hoursAgo(100), sends: [{ ...sent, firstOpenedAt: hoursAgo(4) }] },
      { id: "sub_dee", email: "dee@example.com", status: "unsubscribed", createdAt: hoursAgo(100), sends: [sent] },
      { id: "sub_eve", email: "eve@example.com", createdAt: hoursAgo(100) },
    ]);

    const early = await call("POST", path);
    t.deepEqual(
      [early.status, early.body],
      [
        400,
        {
          success: false,
          error: "Resending to non-openers is possible 6 hours after the send finished, so opens have time to arrive: from 2026-11-22T11:00:00.000Z",
          code: "TOO_EARLY",
          availableAt: "2026-11-22T11:00:00.000Z",
        },
      ],
    );
    t.is((await call("GET", "/api/v1/campaigns")).body.pagination.total, 1, "nothing was created");

    api.clock.set(new Date("2026-11-22T11:00:00.000Z"));
    t.is((await api.call("POST", path, { key: other.ownerKey })).status, 404, "another company's campaign is not found");
    const resent = await call("POST", path);
    t.is(resent.status, 200, JSON.stringify(resent.body));
    t.is(resent.body.estimatedNonOpenerCount, 2, "Bob and Cy: a scanner's open and a test send do not make an opener");
    const copy = resent.body.campaign;
    t.not(copy.id, campaign.id);
    t.like(copy, {
      name: "Spring sale (non-openers)",
      status: "draft",
      subject: SALE.subject,
      campaignData: SALE.campaignData,
      labels: ["spring"],
      sentAt: null,
      scheduledAt: null,
      stats: { sent: 0 },
    });
    t.deepEqual(copy.blocks, campaign.blocks, "the same email");
    t.deepEqual(copy.targetLists, {
      type: "filtered",
      filters: [
        { field: "emailSent", operator: "is", value: `campaign:${campaign.id}` },
        { field: "emailOpened", operator: "is_not", value: `campaign:${campaign.id}` },
      ],
      filterJoinOperator: "and",
    });
    t.is((await call("GET", `/api/v1/campaigns/${copy.id}/audience`)).body.recipientCount, 2);
    t.like((await call("GET", `/api/v1/campaigns/${campaign.id}`)).body.campaign, { status: "sent", name: "Spring sale" }, "the original is unchanged");

    // An imported campaign's sends are elsewhere.
    await api.runtime.knex("campaigns").where({ id: campaign.id }).update({ source: "mailchimp" });
    const imported = await call("POST", path);
    t.is(imported.status, 400);
    t.regex(imported.body.error, /imported from another provider/);
  });

  test(name("goals: event goals are kept per campaign, and a campaign's metrics count their conversions within the window"), async (t) => {
    const api = await apiFixture(t, dialect);
    api.clock.set(NOW);
    const company = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const other = await createCompanyFixture(api.runtime.container, { name: "Other" });
    const call = await pacedCaller(api, company);
    const campaign = (await call("POST", "/api/v1/campaigns", { body: SALE })).body.campaign;
    const goals = `/api/v1/campaigns/${campaign.id}/goals`;

    const created = await call("POST", goals, { body: { name: "Purchase", triggerEventName: "order_placed", eventPropertyName: "total" } });
    t.is(created.status, 200, JSON.stringify(created.body));
    const goal = created.body.goal;
    t.regex(goal.id, /^goal_/);
    t.deepEqual(goal, {
      id: goal.id,
      campaignId: campaign.id,
      name: "Purchase",
      description: null,
      triggerType: "event",
      triggerEventName: "order_placed",
      attributePath: null,
      attributeCondition: null,
      attributeValue: null,
      attributePreviousValue: null,
      eventPropertyName: "total",
      eventPropertyLabel: null,
      attributionWindowHours: 72,
      isActive: true,
      createdAt: NOW.toISOString(),
      updatedAt: NOW.toISOString(),
    });
    const signup = (await call("POST", goals, { body: { name: "Sign-up", triggerEventName: "signed_up", attributionWindowHours: 1, isActive: false } })).body
      .goal;
    t.deepEqual(
      (await call("GET", goals)).body.goals.map((g: { name: string }) => g.name),
      ["Purchase", "Sign-up"],
    );

    const patched = await call("PATCH", `${goals}/${signup.id}`, { body: { isActive: true, description: "Trial", attributionWindowHours: 2 } });
    t.like(patched.body.goal, { isActive: true, description: "Trial", attributionWindowHours: 2, name: "Sign-up" });

    // Refusals change nothing.
    const attribute = await call("POST", goals, { body: { name: "Plan", triggerType: "attribute_change", attributePath: "plan" } });
    t.deepEqual([attribute.status, attribute.body.success], [400, false]);
    t.regex(attribute.body.error, /^Only event goals are available/);
    t.deepEqual(
      (await call("POST", goals, { body: { name: "No event" } })).body.error,
      "triggerEventName is required: the event a recipient does that counts as a conversion",
    );
    t.is((await call("POST", goals, { body: { name: "Wide", triggerEventName: "x", attributionWindowHours: 721 } })).status, 422);
    t.deepEqual((await call("PATCH", `${goals}/${signup.id}`, { body: {} })).body.error, "No supported fields provided");
    t.is((await call("PATCH", `${goals}/goal_missing`, { body: { name: "x" } })).body.error, "Goal not found");
    t.is((await api.call("GET", goals, { key: other.ownerKey })).status, 404);
    t.is((await api.call("PATCH", `${goals}/${goal.id}`, { key: other.ownerKey, body: { name: "Mine" } })).status, 404);
    t.is((await api.call("DELETE", `${goals}/${goal.id}`, { key: other.ownerKey })).status, 404);
    t.is((await call("GET", goals)).body.goals.length, 2);

    // Ann buys twice within 72 hours of her send (her first order's total counts), Bob after it, Cy before it;
    // Dee's only send is a test; Eve signs up within 2 hours.
    const sentAt = hoursAgo(100);
    const sent = { campaignId: campaign.id, sentAt, deliveredAt: sentAt };
    await insertContactRows(api.runtime.knex, company.companyId, [
      {
        id: "sub_ann",
        email: "ann@example.com",
        createdAt: hoursAgo(200),
        sends: [sent],
        events: [
          { name: "order_placed", occurredAt: hoursAgo(90), properties: { total: 4900 } },
          { name: "order_placed", occurredAt: hoursAgo(80), properties: { total: 1200 } },
        ],
      },
      {
        id: "sub_bob",
        email: "bob@example.com",
        createdAt: hoursAgo(200),
        sends: [sent],
        events: [{ name: "order_placed", occurredAt: hoursAgo(20), properties: { total: 7000 } }],
      },
      { id: "sub_cy", email: "cy@example.com", createdAt: hoursAgo(200), sends: [sent], events: [{ name: "order_placed", occurredAt: hoursAgo(110) }] },
      {
        id: "sub_dee",
        email: "dee@example.com",
        createdAt: hoursAgo(200),
        sends: [{ ...sent, isTest: true }],
        events: [{ name: "order_placed", occurredAt: hoursAgo(99) }],
      },
      { id: "sub_eve", email: "eve@example.com", createdAt: hoursAgo(200), sends: [sent], events: [{ name: "signed_up", occurredAt: hoursAgo(99) }] },
    ]);
    const metrics = await call("GET", `/api/v1/metrics/campaigns/${campaign.id}`);
    t.is(metrics.status, 200, JSON.stringify(metrics.body));
    t.like(metrics.body.stats, { sent: 4, delivered: 4, conversions: 2, revenueCents: 4900 });
    t.deepEqual(metrics.body.goals, [
      { id: goal.id, name: "Purchase", triggerEventName: "order_placed", attributionWindowHours: 72, conversions: 1, conversionRate: 25 },
      { id: signup.id, name: "Sign-up", triggerEventName: "signed_up", attributionWindowHours: 2, conversions: 1, conversionRate: 25 },
    ]);
    t.deepEqual(
      (await call("GET", `/api/v1/metrics/campaigns/${campaign.id}?period=24h`)).body.goals.map((g: { conversions: number }) => g.conversions),
      [0, 0],
    );
    // GET /metrics/emails: the campaign's row carries the same conversions and revenue.
    const emails = await call("GET", `/api/v1/metrics/emails?campaignId=${campaign.id}&sort=conversions`);
    t.is(emails.status, 200, JSON.stringify(emails.body));
    t.like(emails.body.emails, [{ emailId: campaign.id, conversions: 2, revenueCents: 4900 }]);
    t.like(emails.body.totals, { emails: 1, conversions: 2, revenueCents: 4900 });

    t.deepEqual((await call("DELETE", `${goals}/${signup.id}`)).body, { success: true, goalId: signup.id });
    t.is((await call("DELETE", `${goals}/${signup.id}`)).status, 404);
    t.deepEqual(
      (await call("GET", `/api/v1/metrics/campaigns/${campaign.id}`)).body.goals.map((g: { name: string }) => g.name),
      ["Purchase"],
    );
  });
}
