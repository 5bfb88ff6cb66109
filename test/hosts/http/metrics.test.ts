import test, { type ExecutionContext } from "ava";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { insertSendHistories, insertTransactionalRow, type SendHistory } from "../../../fixtures/email-sends.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { insertContactRows } from "../../helpers/contact-rows.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse } from "../../helpers/http-client.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const hoursAgo = (hours: number): Date => new Date(NOW.getTime() - hours * 3_600_000);
const daysAgo = (days: number): Date => hoursAgo(days * 24);
const iso = (date: Date): string => date.toISOString();

const LINK_A = "https://shop.example/a";
const LINK_B = "https://shop.example/b";

/**
 * The company's sends. In the last 7 days: s1..s4, s7, s8 (6 sends; s6 is a test send);
 * s5 and s10 are older, s9 was never sent.
 */
function history(): SendHistory[] {
  return [
    {
      id: "s1",
      sentAt: hoursAgo(23),
      mailboxProvider: "gmail",
      events: [
        { type: "delivery", at: hoursAgo(22) },
        { type: "open", at: hoursAgo(22), machine: true },
        { type: "open", at: hoursAgo(20) },
        { type: "click", at: hoursAgo(20), url: LINK_A },
        { type: "click", at: hoursAgo(19), url: LINK_A },
        { type: "click", at: hoursAgo(22), url: LINK_B, machine: true },
        { type: "reply", at: hoursAgo(18) },
      ],
    },
    {
      id: "s2",
      sentAt: daysAgo(2),
      mailboxProvider: "microsoft",
      emailType: "transactional",
      transactionalEmailId: "txe_welcome",
      events: [
        { type: "delivery", at: daysAgo(2) },
        { type: "open", at: daysAgo(2), machine: true },
        // A click with images blocked: no human open.
        { type: "click", at: daysAgo(1), url: LINK_A },
      ],
    },
    {
      id: "s3",
      sentAt: daysAgo(3),
      events: [
        { type: "bounce", at: daysAgo(3), bounceType: "Transient", bounceSubType: "MailboxFull" },
        { type: "bounce", at: hoursAgo(60), bounceType: "Permanent", bounceSubType: "General" },
      ],
    },
    { id: "s4", sentAt: daysAgo(3), events: [{ type: "bounce", at: daysAgo(3), bounceType: "Transient", bounceSubType: "MailboxFull" }] },
    // Sent before the 7-day period: its open inside the period does not count there.
    {
      id: "s5",
      sentAt: daysAgo(10),
      events: [
        { type: "delivery", at: daysAgo(10) },
        { type: "open", at: daysAgo(1) },
      ],
    },
    {
      id: "s6",
      sentAt: daysAgo(2),
      isTest: true,
      events: [
        { type: "delivery", at: daysAgo(2) },
        { type: "open", at: daysAgo(2) },
      ],
    },
    {
      id: "s7",
      sentAt: daysAgo(5),
      mailboxProvider: "yahoo",
      emailType: "sequence",
      events: [
        { type: "delivery", at: daysAgo(5) },
        { type: "complaint", at: daysAgo(4) },
        { type: "unsubscribe", at: daysAgo(4) },
      ],
    },
    { id: "s8", sentAt: daysAgo(6), mailboxProvider: "gmail", events: [{ type: "delivery", at: daysAgo(6) }] },
    { id: "s9", sentAt: null },
    // No delivery event at all, but an open: delivered through engagement.
    { id: "s10", sentAt: daysAgo(20), events: [{ type: "open", at: daysAgo(19) }] },
    { id: "s11", sentAt: daysAgo(100), emailType: "transactional", transactionalEmailId: "txe_welcome", events: [{ type: "delivery", at: daysAgo(100) }] },
  ];
}

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  get(path: string, key?: string): Promise<JsonResponse>;
}

async function session(t: ExecutionContext, dialect: Dialect): Promise<Session> {
  const api = await apiFixture(t, dialect);
  api.clock.set(NOW);
  const company = await createCompanyFixture(api.runtime.container);
  const other = await createCompanyFixture(api.runtime.container);
  const knex = api.runtime.knex;
  await insertTransactionalRow(knex, company.companyId, { id: "txe_welcome", slug: "welcome", name: "Welcome" });
  await insertTransactionalRow(knex, company.companyId, { id: "txe_gone", slug: "gone", name: "Gone", deletedAt: daysAgo(1) });
  await insertTransactionalRow(knex, other.companyId, { id: "txe_theirs", slug: "theirs", name: "Theirs" });
  await insertSendHistories(knex, company.companyId, history());
  // Another company's sends and contacts count nowhere here.
  await insertSendHistories(knex, other.companyId, [
    {
      id: "o1",
      sentAt: hoursAgo(2),
      mailboxProvider: "gmail",
      transactionalEmailId: "txe_theirs",
      events: [
        { type: "delivery", at: hoursAgo(2) },
        { type: "open", at: hoursAgo(1) },
      ],
    },
  ]);
  await insertContactRows(knex, company.companyId, [
    { id: "c1", email: "c1@example.com", createdAt: daysAgo(400) },
    { id: "c2", email: "c2@example.com", createdAt: daysAgo(1) },
    { id: "c3", email: "c3@example.com", status: "unsubscribed", createdAt: daysAgo(2) },
  ]);
  await insertContactRows(knex, other.companyId, [{ id: "c4", email: "c4@example.com", createdAt: daysAgo(1) }]);
  let last = 0;
  return {
    api,
    company,
    // Paced under the per-key limit of 20 requests a second.
    async get(path, key = company.ownerKey) {
      const wait = last + 60 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      last = Date.now();
      return api.call("GET", path, { key });
    },
  };
}

const zeroStats = {
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

  test(name("GET /metrics is the funnel of the sends made in the last 7 days, with the contact counts"), async (t) => {
    const s = await session(t, dialect);
    const response = await s.get("/api/v1/metrics");
    t.is(response.status, 200);
    t.deepEqual(response.body, {
      success: true,
      period: { name: "7d", start: iso(daysAgo(7)), end: iso(NOW) },
      stats: {
        sent: 6,
        delivered: 4,
        bounced: 2,
        opened: 1,
        clicked: 2,
        replies: 1,
        complaints: 1,
        unsubscribed: 1,
        deliveryRate: 66.67,
        bounceRate: 33.33,
        openRate: 25,
        clickRate: 50,
        replyRate: 25,
        complaintRate: 25,
        unsubscribeRate: 25,
        rateDenominator: 4,
        rateDenominatorBasis: "delivered",
      },
      complaints: { count: 1, rate: 25 },
      bounceBreakdown: {
        permanent: 1,
        transient: 1,
        undetermined: 0,
        subtypes: [
          { type: "Permanent", subType: "General", count: 1 },
          { type: "Transient", subType: "MailboxFull", count: 1 },
        ],
      },
      engagementBreakdown: { human: { opens: 1, clicks: 2 }, machine: { opens: 2, clicks: 1 } },
      clickedLinks: [{ url: LINK_A, clicks: 2, percentage: 100 }],
      subscriberCount: 3,
      activeSubscriberCount: 2,
    });

    // The alias, and the legacy prefix, answer the same.
    t.deepEqual((await s.get("/api/v1/stats")).body, response.body);
    t.deepEqual((await s.get("/v1/stats?period=7d")).body, response.body);
  });

  test(name("includeMachineEngagement counts scanner opens and clicks; the breakdown always has both"), async (t) => {
    const s = await session(t, dialect);
    const response = await s.get("/api/v1/metrics?period=7d&includeMachineEngagement=true");
    t.is(response.status, 200);
    t.like(response.body.stats, { opened: 2, clicked: 2, openRate: 50, clickRate: 50, rateDenominator: 4 });
    t.deepEqual(response.body.engagementBreakdown, { human: { opens: 1, clicks: 2 }, machine: { opens: 2, clicks: 1 } });
    t.deepEqual(response.body.clickedLinks, [
      { url: LINK_A, clicks: 2, percentage: 100 },
      { url: LINK_B, clicks: 1, percentage: 50 },
    ]);
    const off = await s.get("/api/v1/metrics?includeMachineEngagement=false");
    t.like(off.body.stats, { opened: 1, clicked: 2 });
  });

  test(name("periods: each ends now; start and end make a fixed range; an empty period has zero rates"), async (t) => {
    const s = await session(t, dialect);
    const day = await s.get("/api/v1/metrics?period=24h");
    t.deepEqual(day.body.period, { name: "24h", start: iso(hoursAgo(24)), end: iso(NOW) });
    t.like(day.body.stats, { sent: 1, delivered: 1, opened: 1, clicked: 1, replies: 1, openRate: 100 });

    // s5, sent 10 days ago, and s10 (20 days ago) join in 30 days.
    const month = await s.get("/api/v1/metrics?period=30d");
    t.like(month.body.stats, { sent: 8, delivered: 6, opened: 3, rateDenominator: 6, openRate: 50 });
    t.like((await s.get("/api/v1/metrics?period=90d")).body.stats, { sent: 8 });

    const hour = await s.get("/api/v1/metrics?period=1h");
    t.deepEqual(hour.body.stats, zeroStats);
    t.deepEqual(hour.body.clickedLinks, []);
    t.deepEqual(hour.body.bounceBreakdown, { permanent: 0, transient: 0, undetermined: 0, subtypes: [] });
    t.is(hour.body.subscriberCount, 3, "contact counts ignore the period");

    // The two bounced sends only: no delivery event, so the rates fall back to sent.
    const bounces = await s.get(`/api/v1/metrics?start=${iso(hoursAgo(80))}&end=${iso(hoursAgo(70))}&period=24h`);
    t.is(bounces.status, 200);
    t.deepEqual(bounces.body.period, { name: "custom", start: iso(hoursAgo(80)), end: iso(hoursAgo(70)) });
    t.like(bounces.body.stats, { sent: 2, delivered: 0, bounced: 2, deliveryRate: 0, bounceRate: 100, rateDenominator: 2, rateDenominatorBasis: "sent" });

    // Opened without any delivery event: delivered through engagement, rates over sent.
    const engaged = await s.get(`/api/v1/metrics?start=${iso(daysAgo(21))}&end=${iso(daysAgo(19))}`);
    t.like(engaged.body.stats, { sent: 1, delivered: 1, opened: 1, openRate: 100, deliveryRate: 100, rateDenominator: 1, rateDenominatorBasis: "sent" });

    // A fixed range does not move with the clock.
    s.api.clock.set(new Date(NOW.getTime() + 5 * 86_400_000));
    t.deepEqual((await s.get(`/api/v1/metrics?start=${iso(hoursAgo(80))}&end=${iso(hoursAgo(70))}`)).body, bounces.body);
  });

  test(name("emailType and mailboxProvider narrow the sends; a provider filter reports no replies"), async (t) => {
    const s = await session(t, dialect);
    const gmail = await s.get("/api/v1/metrics?mailboxProvider=gmail");
    t.is(gmail.status, 200);
    t.is(gmail.body.mailboxProvider, "gmail");
    t.false("emailType" in gmail.body);
    t.like(gmail.body.stats, { sent: 2, delivered: 2, opened: 1, clicked: 1, replies: 0, replyRate: 0, openRate: 50 });
    t.like((await s.get("/api/v1/metrics?mailboxProvider=orange")).body.stats, { sent: 0 });

    const transactional = await s.get("/api/v1/metrics?emailType=transactional");
    t.is(transactional.body.emailType, "transactional");
    t.false("mailboxProvider" in transactional.body);
    t.like(transactional.body.stats, { sent: 1, delivered: 1, opened: 0, clicked: 1 });
    const sequence = await s.get("/api/v1/metrics?emailType=sequence&mailboxProvider=yahoo");
    t.like(sequence.body.stats, { sent: 1, complaints: 1, unsubscribed: 1, complaintRate: 100 });
    t.like((await s.get("/api/v1/metrics?emailType=sequence&mailboxProvider=gmail")).body.stats, { sent: 0 });
  });

  test(name("invalid periods, ranges and filters are refused with their reasons"), async (t) => {
    const s = await session(t, dialect);
    const refused = async (query: string) => {
      const response = await s.get(`/api/v1/metrics?${query}`);
      return [response.status, response.body.error, response.body.errors];
    };
    t.deepEqual(await refused("period=2d"), [
      422,
      "Invalid request: period must be one of: 1h, 24h, 7d, 30d, 90d",
      [{ path: "period", message: "must be one of: 1h, 24h, 7d, 30d, 90d" }],
    ]);
    t.deepEqual(await refused(`start=${iso(daysAgo(3))}`), [400, "start and end must be used together", undefined]);
    t.deepEqual(await refused(`end=${iso(daysAgo(3))}`), [400, "start and end must be used together", undefined]);
    t.deepEqual(await refused(`start=${iso(daysAgo(1))}&end=${iso(daysAgo(2))}`), [400, "start must be before end", undefined]);
    t.deepEqual(await refused(`start=${iso(daysAgo(91))}&end=${iso(NOW)}`), [400, "The date range must be at most 90 days", undefined]);
    t.is((await s.get(`/api/v1/metrics?start=${iso(daysAgo(90))}&end=${iso(NOW)}`)).status, 200, "exactly 90 days is allowed");
    t.deepEqual(await refused("start=yesterday&end=today"), [
      422,
      "Invalid request: start must be an ISO 8601 timestamp (and 1 more)",
      [
        { path: "start", message: "must be an ISO 8601 timestamp" },
        { path: "end", message: "must be an ISO 8601 timestamp" },
      ],
    ]);
    t.deepEqual(await refused("emailType=newsletter"), [
      422,
      "Invalid request: emailType must be one of: campaign, transactional, sequence",
      [{ path: "emailType", message: "must be one of: campaign, transactional, sequence" }],
    ]);
    t.deepEqual(await refused("mailboxProvider=hotmail"), [
      422,
      "Invalid request: mailboxProvider must be one of: gmail, microsoft, yahoo, icloud, orange, other",
      [{ path: "mailboxProvider", message: "must be one of: gmail, microsoft, yahoo, icloud, orange, other" }],
    ]);
    t.deepEqual(await refused("includeMachineEngagement=maybe"), [
      422,
      "Invalid request: includeMachineEngagement must be true or false",
      [{ path: "includeMachineEngagement", message: "must be true or false" }],
    ]);
    const transactional = await s.get(`/api/v1/metrics/transactional/welcome?start=${iso(daysAgo(100))}&end=${iso(NOW)}`);
    t.deepEqual([transactional.status, transactional.body], [400, { success: false, error: "The date range must be at most 90 days" }]);
  });

  test(name("metrics need the analytics:read scope"), async (t) => {
    const s = await session(t, dialect);
    const reader = await createMemberKeyFixture(s.api.runtime.container, s.company.companyId, { scopes: ["subscribers:read"] });
    for (const path of ["/api/v1/metrics", "/api/v1/stats", "/api/v1/metrics/transactional/welcome", "/api/v1/transactional/welcome/stats"]) {
      const response = await s.get(path, reader.key);
      t.deepEqual([response.status, response.body], [403, { success: false, error: "API key is missing required scope: analytics:read" }], path);
    }
    const analyst = await createMemberKeyFixture(s.api.runtime.container, s.company.companyId, { scopes: ["analytics:read"] });
    t.is((await s.get("/api/v1/metrics", analyst.key)).status, 200);
    t.is((await s.get("/api/v1/metrics")).status, 200);
    t.is((await s.api.call("GET", "/api/v1/metrics")).status, 401);
  });

  test(name("GET /metrics/transactional/{idOrSlug} is the all-time funnel of one saved transactional email"), async (t) => {
    const s = await session(t, dialect);
    const response = await s.get("/api/v1/metrics/transactional/welcome");
    t.is(response.status, 200);
    t.deepEqual(response.body, {
      success: true,
      period: { name: "all", start: null, end: null },
      transactional: { id: "txe_welcome", name: "Welcome", slug: "welcome" },
      stats: {
        sent: 2,
        delivered: 2,
        bounced: 0,
        opened: 0,
        clicked: 1,
        replies: 0,
        complaints: 0,
        unsubscribed: 0,
        deliveryRate: 100,
        bounceRate: 0,
        openRate: 0,
        clickRate: 50,
        replyRate: 0,
        complaintRate: 0,
        unsubscribeRate: 0,
        rateDenominator: 2,
        rateDenominatorBasis: "delivered",
      },
      complaints: { count: 0, rate: 0 },
      clickedLinks: [{ url: LINK_A, clicks: 1, percentage: 100 }],
      bounceBreakdown: { permanent: 0, transient: 0, undetermined: 0, subtypes: [] },
      engagementBreakdown: { human: { opens: 0, clicks: 1 }, machine: { opens: 1, clicks: 0 } },
    });
    t.deepEqual((await s.get("/api/v1/metrics/transactional/txe_welcome")).body, response.body, "by ID");
    t.deepEqual((await s.get("/api/v1/transactional/welcome/stats")).body, response.body, "the alias");
    t.deepEqual((await s.get("/v1/transactional/txe_welcome/stats")).body, response.body, "the legacy prefix");

    const week = await s.get("/api/v1/metrics/transactional/welcome?period=7d&includeMachineEngagement=true");
    t.deepEqual(week.body.period, { name: "7d", start: iso(daysAgo(7)), end: iso(NOW) });
    t.like(week.body.stats, { sent: 1, delivered: 1, opened: 1, clicked: 1, openRate: 100 });

    for (const missing of ["unknown", "gone", "txe_gone", "theirs", "txe_theirs"]) {
      const notFound = await s.get(`/api/v1/metrics/transactional/${missing}`);
      t.deepEqual([notFound.status, notFound.body], [404, { success: false, error: "Transactional email not found" }], missing);
    }
    t.is((await s.get("/api/v1/transactional/theirs/stats")).status, 404);
  });

  test(name("GET /transactional computes the stats of a page of emails in one query, as many queries for five emails as for one"), async (t) => {
    const s = await session(t, dialect);
    const knex = s.api.runtime.knex;
    for (const slug of ["receipt", "reset", "invite", "quiet"])
      await insertTransactionalRow(knex, s.company.companyId, { id: `txe_${slug}`, slug, name: slug });
    const transactional = (id: string, transactionalEmailId: string, sentAt: Date, events: SendHistory["events"] = []): SendHistory => ({
      id,
      sentAt,
      emailType: "transactional",
      transactionalEmailId,
      events,
    });
    await insertSendHistories(knex, s.company.companyId, [
      transactional("r1", "txe_receipt", daysAgo(1), [
        { type: "delivery", at: daysAgo(1) },
        { type: "open", at: hoursAgo(20) },
      ]),
      transactional("r2", "txe_receipt", daysAgo(1), [{ type: "bounce", at: daysAgo(1), bounceType: "Permanent", bounceSubType: "General" }]),
      transactional("r3", "txe_receipt", daysAgo(2), [{ type: "open", at: daysAgo(2), machine: true }]),
      transactional("p1", "txe_reset", daysAgo(2), [
        { type: "delivery", at: daysAgo(2) },
        { type: "click", at: daysAgo(2), url: LINK_B },
      ]),
      transactional("i1", "txe_invite", daysAgo(3)),
    ]);

    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    knex.on("query", record);
    t.teardown(() => {
      knex.removeListener("query", record);
    });
    /** The statements a request ran on each of the tables the list reads. */
    const list = async (path: string) => {
      statements.length = 0;
      const response = await s.get(path);
      t.is(response.status, 200, path);
      const on = (table: string) => statements.filter((sql) => new RegExp(`\\b${table}\\b`).test(sql));
      return { response, sends: on("email_sends"), contents: on("templates"), emails: on("transactional_emails") };
    };

    const page = await list("/api/v1/transactional?sort=sends");
    t.deepEqual(
      page.response.body.transactional.map((e: { slug: string; stats: { sent: number } }) => [e.slug, e.stats.sent]),
      [
        ["receipt", 3],
        ["welcome", 2],
        ["reset", 1],
        ["invite", 1],
        ["quiet", 0],
      ],
    );
    t.is(page.sends.length, 1, "one query over the sends for the whole page");
    t.regex(page.sends[0]!, /group by/i);
    t.is(page.contents.length, 1, "one query for the contents of the whole page");
    t.is(page.emails.length, 1);

    const one = await list("/api/v1/transactional?search=receipt");
    t.deepEqual(
      one.response.body.transactional.map((e: { slug: string }) => e.slug),
      ["receipt"],
    );
    t.deepEqual([one.sends.length, one.contents.length, one.emails.length], [page.sends.length, page.contents.length, page.emails.length]);

    // Each email's stats are the ones its own metrics route gives (machine engagement excluded unless asked).
    for (const machine of [false, true]) {
      const listed = (await s.get(`/api/v1/transactional?includeMachineEngagement=${machine}`)).body.transactional as Array<{ slug: string; stats: unknown }>;
      for (const item of listed) {
        const own = await s.get(`/api/v1/metrics/transactional/${item.slug}?includeMachineEngagement=${machine}`);
        t.deepEqual(item.stats, own.body.stats, `${item.slug}, includeMachineEngagement=${machine}`);
      }
    }
    const quiet = page.response.body.transactional.find((e: { slug: string }) => e.slug === "quiet");
    t.deepEqual(quiet.stats, zeroStats, "an email never sent has zero stats");
    t.false(JSON.stringify(page.response.body).includes("theirs"), "another company's email and sends are not listed");
  });
}
