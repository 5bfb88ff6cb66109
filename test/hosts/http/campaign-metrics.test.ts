import test, { type ExecutionContext } from "ava";
import { createCompanyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { insertSendHistories, type SendHistory } from "../../../fixtures/email-sends.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse } from "../../helpers/http-client.js";
import { pacedCaller, type PacedCall } from "../../helpers/paced-caller.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const hoursAgo = (hours: number): Date => new Date(NOW.getTime() - hours * 3_600_000);
const LINK = "https://shop.example/sale";

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  readonly other: CompanyFixture;
  readonly call: PacedCall;
  readonly spring: string;
  readonly autumn: string;
  readonly theirs: string;
  readonly sequenceId: string;
  /** The sequence's two email steps, in order. */
  readonly steps: readonly string[];
  get(path: string, key?: string): Promise<JsonResponse>;
}

/**
 * Two campaigns and a sequence of the company, and a campaign of another company, with sends
 * written as the pipeline keeps them. Spring: a1 delivered, opened by a person and by a scanner,
 * clicked; a2 delivered, opened only by a scanner; a3 bounced; a test send, opened. Autumn: one
 * delivered send. The sequence: two sends of its first email, one of its second.
 */
async function session(t: ExecutionContext, dialect: Dialect): Promise<Session> {
  const api = await apiFixture(t, dialect);
  api.clock.set(NOW);
  const company = await createCompanyFixture(api.runtime.container);
  const other = await createCompanyFixture(api.runtime.container);
  const call = await pacedCaller(api, company);
  const create = async (name: string, key = company.ownerKey) =>
    (await api.call("POST", "/api/v1/campaigns", { key, body: { name, subject: name, html: "<p>Hi</p>" } })).body.campaign.id as string;
  const spring = await create("Spring sale");
  const autumn = await create("Autumn sale");
  const theirs = await create("Their sale", other.ownerKey);
  const sequence = await call("POST", "/api/v1/sequences", {
    body: {
      name: "Onboarding",
      steps: [
        { subject: "Welcome", html: "<p>Hi</p>" },
        { subject: "Tips", html: "<p>Tips</p>", delayDays: 2 },
      ],
    },
  });
  t.is(sequence.status, 200, JSON.stringify(sequence.body));
  const steps = ((await call("GET", `/api/v1/sequences/${sequence.body.sequence.id}`)).body.sequence.emails as Array<{ nodeId: string }>).map(
    (email) => email.nodeId,
  );

  const knex = api.runtime.knex;
  const campaignSends: Array<SendHistory & { campaignId: string }> = [
    {
      id: "a1",
      campaignId: spring,
      sentAt: hoursAgo(30),
      events: [
        { type: "delivery", at: hoursAgo(30) },
        { type: "open", at: hoursAgo(29), machine: true },
        { type: "open", at: hoursAgo(20) },
        { type: "click", at: hoursAgo(19), url: LINK },
      ],
    },
    {
      id: "a2",
      campaignId: spring,
      sentAt: hoursAgo(30),
      events: [
        { type: "delivery", at: hoursAgo(29) },
        { type: "open", at: hoursAgo(28), machine: true },
      ],
    },
    { id: "a3", campaignId: spring, sentAt: hoursAgo(30), events: [{ type: "bounce", at: hoursAgo(29), bounceType: "Permanent", bounceSubType: "General" }] },
    {
      id: "a_test",
      campaignId: spring,
      isTest: true,
      sentAt: hoursAgo(40),
      events: [
        { type: "delivery", at: hoursAgo(40) },
        { type: "open", at: hoursAgo(39) },
      ],
    },
    { id: "b1", campaignId: autumn, sentAt: hoursAgo(5), events: [{ type: "delivery", at: hoursAgo(5) }] },
  ];
  await insertSendHistories(knex, company.companyId, campaignSends);
  for (const send of campaignSends) await knex("email_sends").where({ id: send.id }).update({ campaign_id: send.campaignId });
  const sequenceSends: Array<SendHistory & { node: string }> = [
    { id: "q1", node: steps[0]!, emailType: "sequence", sentAt: hoursAgo(10), events: [{ type: "delivery", at: hoursAgo(10) }] },
    { id: "q2", node: steps[0]!, emailType: "sequence", sentAt: hoursAgo(9), events: [{ type: "delivery", at: hoursAgo(9) }] },
    { id: "q3", node: steps[1]!, emailType: "sequence", sentAt: hoursAgo(2), events: [{ type: "delivery", at: hoursAgo(2) }] },
  ];
  await insertSendHistories(knex, company.companyId, sequenceSends);
  for (const send of sequenceSends) {
    await knex("email_sends").where({ id: send.id }).update({ automation_id: sequence.body.sequence.id, automation_node_id: send.node });
  }
  await insertSendHistories(knex, other.companyId, [{ id: "o1", sentAt: hoursAgo(3), events: [{ type: "delivery", at: hoursAgo(3) }] }]);
  await knex("email_sends").where({ id: "o1" }).update({ campaign_id: theirs });

  return {
    api,
    company,
    other,
    call,
    spring,
    autumn,
    theirs,
    sequenceId: sequence.body.sequence.id,
    steps,
    get: (path, key) => (key ? api.call("GET", path, { key }) : call("GET", path)),
  };
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("a campaign's metrics count its sends as the account metrics do, test sends and machine engagement left out, and match its stats"), async (t) => {
    const s = await session(t, dialect);
    const metrics = await s.get(`/api/v1/metrics/campaigns/${s.spring}`);
    t.is(metrics.status, 200, JSON.stringify(metrics.body));
    t.deepEqual(metrics.body.stats, {
      sent: 3,
      delivered: 2,
      bounced: 1,
      opened: 1,
      clicked: 1,
      replies: 0,
      complaints: 0,
      unsubscribed: 0,
      deliveryRate: 66.67,
      bounceRate: 33.33,
      openRate: 50,
      clickRate: 50,
      replyRate: 0,
      complaintRate: 0,
      unsubscribeRate: 0,
      rateDenominator: 2,
      rateDenominatorBasis: "delivered",
      conversions: 0,
      revenueCents: 0,
    });
    t.like(metrics.body, {
      success: true,
      campaign: { id: s.spring, name: "Spring sale", status: "draft" },
      period: { name: "all", start: null, end: null },
      clickedLinks: [{ url: LINK, clicks: 1, percentage: 100 }],
      engagementBreakdown: { human: { opens: 1, clicks: 1 }, machine: { opens: 2, clicks: 0 } },
      bounceBreakdown: { permanent: 1, transient: 0, undetermined: 0 },
      polls: [],
      goals: [],
      recommendations: {},
    });
    t.false("mailboxProvider" in metrics.body);
    // The campaign's own stats are the same funnel (its goals' conversions are the metrics' own).
    const { conversions: _conversions, revenueCents: _revenueCents, ...funnel } = metrics.body.stats;
    t.deepEqual((await s.get(`/api/v1/campaigns/${s.spring}`)).body.campaign.stats, funnel);

    const withMachines = await s.get(`/api/v1/metrics/campaigns/${s.spring}?includeMachineEngagement=true`);
    t.like(withMachines.body.stats, { opened: 2, openRate: 100 });
    const lastDay = await s.get(`/api/v1/metrics/campaigns/${s.spring}?period=24h`);
    t.like(lastDay.body.stats, { sent: 0 }, "the period selects sends made in it");
    const gmail = await s.get(`/api/v1/metrics/campaigns/${s.spring}?mailboxProvider=gmail`);
    t.like(gmail.body, { mailboxProvider: "gmail", stats: { sent: 0 } });

    // Another company's campaign is not found, either way round; bad queries change nothing.
    t.deepEqual((await s.get(`/api/v1/metrics/campaigns/${s.theirs}`)).body, { success: false, error: "Campaign not found" });
    t.is((await s.get(`/api/v1/metrics/campaigns/${s.spring}`, s.other.ownerKey)).status, 404);
    t.like((await s.get(`/api/v1/metrics/campaigns/${s.theirs}`, s.other.ownerKey)).body.stats, { sent: 1 });
    const halfRange = await s.get(`/api/v1/metrics/campaigns/${s.spring}?start=2026-11-01T00:00:00.000Z`);
    t.deepEqual([halfRange.status, halfRange.body.error], [400, "start and end must be used together"]);
    t.is((await s.get(`/api/v1/metrics/campaigns/${s.spring}?period=2d`)).status, 422);
  });

  test(name("a campaign's events are listed newest first, by type, a page at a time, without test sends"), async (t) => {
    const s = await session(t, dialect);
    const deliveries = await s.get(`/api/v1/metrics/campaigns/${s.spring}/events`);
    t.is(deliveries.status, 200, JSON.stringify(deliveries.body));
    t.deepEqual(
      deliveries.body.events.map((event: { emailSendId: string; eventType: string; eventTime: string }) => [
        event.emailSendId,
        event.eventType,
        event.eventTime,
      ]),
      [
        ["a1", "delivery", hoursAgo(30).toISOString()],
        ["a2", "delivery", hoursAgo(29).toISOString()],
      ].reverse(),
    );
    t.deepEqual(deliveries.body.pagination, { page: 1, limit: 100, total: 2, totalPages: 1 });
    t.like(deliveries.body.events[0], { recipientEmail: "a2@example.com", subscriberId: null, machine: false, url: null });

    const opens = await s.get(`/api/v1/metrics/campaigns/${s.spring}/events?eventTypes=open,click`);
    t.deepEqual(
      opens.body.events.map((event: { emailSendId: string; eventType: string }) => `${event.emailSendId}:${event.eventType}`),
      ["a1:click", "a1:open"],
      "people's opens and clicks only",
    );
    t.like(opens.body.events[0], { url: LINK });
    const all = await s.get(`/api/v1/metrics/campaigns/${s.spring}/events?eventTypes=open&includeMachineEngagement=true&limit=2&page=2`);
    t.deepEqual(all.body.pagination, { page: 2, limit: 2, total: 3, totalPages: 2 });
    t.like(all.body.events, [{ emailSendId: "a1", machine: true }]);
    const bounces = await s.get(`/api/v1/metrics/campaigns/${s.spring}/events?eventTypes=bounce&period=24h`);
    t.deepEqual(bounces.body.events, [], "the period selects the events' own times");

    const bad = await s.get(`/api/v1/metrics/campaigns/${s.spring}/events?eventTypes=open,teleport`);
    t.is(bad.status, 422);
    t.regex(bad.body.error, /teleport/);
    t.is((await s.get(`/api/v1/metrics/campaigns/${s.spring}/events?limit=501`)).status, 422);
    t.is((await s.get(`/api/v1/metrics/campaigns/${s.theirs}/events`)).status, 404);
    t.is((await s.get(`/api/v1/metrics/campaigns/${s.spring}/events`, s.other.ownerKey)).status, 404);
  });

  test(name("GET /metrics/emails gives one row per campaign and sequence email, sorted, filtered and paged, with totals"), async (t) => {
    const s = await session(t, dialect);
    const emails = await s.get("/api/v1/metrics/emails");
    t.is(emails.status, 200, JSON.stringify(emails.body));
    const rows = (body: { emails: Array<{ emailId: string; name: string; step: number | null; stats: { sent: number } }> }) =>
      body.emails.map((row) => [row.name, row.step, row.stats.sent]);
    t.deepEqual(rows(emails.body), [
      ["Spring sale", null, 3],
      ["Welcome", 1, 2],
      ["Autumn sale", null, 1],
      ["Tips", 2, 1],
    ]);
    t.like(emails.body.emails[1], {
      emailType: "sequence",
      emailId: s.steps[0],
      sequenceId: s.sequenceId,
      sequenceName: "Onboarding",
      automationNodeId: s.steps[0],
      campaignId: null,
    });
    t.like(emails.body.emails[0], { emailType: "campaign", emailId: s.spring, campaignId: s.spring, sequenceId: null });
    t.like(emails.body.totals, { emails: 4, sent: 7, delivered: 6, bounced: 1, opened: 1 });
    t.deepEqual([emails.body.sort, emails.body.order], ["sent", "desc"]);
    t.deepEqual(emails.body.pagination, { page: 1, limit: 50, total: 4, totalPages: 1 });
    t.false(JSON.stringify(emails.body).includes(s.theirs), "another company's campaign is nowhere");

    t.deepEqual(
      rows((await s.get("/api/v1/metrics/emails?sort=name&order=asc")).body).map(([name]) => name),
      ["Autumn sale", "Spring sale", "Tips", "Welcome"],
    );
    t.deepEqual(rows((await s.get("/api/v1/metrics/emails?emailType=sequence&step=2")).body), [["Tips", 2, 1]]);
    const two = await s.get(`/api/v1/metrics/emails?campaignId=${s.autumn},${s.theirs}`);
    t.deepEqual(rows(two.body), [["Autumn sale", null, 1]]);
    t.like(two.body.totals, { emails: 1, sent: 1 });
    const paged = await s.get("/api/v1/metrics/emails?limit=1&page=2");
    t.deepEqual(rows(paged.body), [["Welcome", 1, 2]]);
    t.like(paged.body, { pagination: { page: 2, limit: 1, total: 4, totalPages: 4 }, totals: { emails: 4, sent: 7 } });
    t.deepEqual(rows((await s.get("/api/v1/metrics/emails?period=24h")).body), [
      ["Welcome", 1, 2],
      ["Autumn sale", null, 1],
      ["Tips", 2, 1],
    ]);

    const both = await s.get(`/api/v1/metrics/emails?campaignId=${s.spring}&sequenceId=${s.sequenceId}`);
    t.deepEqual([both.status, both.body.error], [400, "Provide campaignId or sequenceId, not both"]);
    // No goal of these emails converted anyone: every row has none, and sorting by revenue keeps the ID order.
    const revenue = await s.get("/api/v1/metrics/emails?sort=revenue");
    t.is(revenue.status, 200, JSON.stringify(revenue.body));
    t.true(revenue.body.emails.every((row: { conversions: number; revenueCents: number }) => row.conversions === 0 && row.revenueCents === 0));
    t.like(revenue.body.totals, { conversions: 0, revenueCents: 0 });
    t.is((await s.get("/api/v1/metrics/emails?sort=bogus")).status, 422);
    t.is((await s.get("/api/v1/metrics/emails?step=0")).status, 422);
  });
}
