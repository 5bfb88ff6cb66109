import test from "ava";
import fc from "fast-check";
import { migrateToLatest } from "../../adapters/knex/migrate.js";
import { KnexCommerceForecasts } from "../../adapters/knex/repositories/commerce-forecast-repository.js";
import { KnexMetricsQueries } from "../../adapters/knex/repositories/metrics-queries.js";
import { ManualClock } from "../../adapters/memory/manual-clock.js";

import { GetAccountMetrics } from "../../core/metrics/get-account-metrics.js";
import type { Actor } from "../../core/shared/actor.js";
import { insertSendHistories, type HistoryEvent, type HistoryEventType, type SendHistory } from "../../fixtures/email-sends.js";
import { insertCompanyRow } from "../helpers/contact-rows.js";
import { dialects, openTestKnex } from "../helpers/databases.js";

/**
 * For random send histories, the metrics the database computes equal a brute-force reading of
 * the raw events, and hold the funnel's invariants: opened <= delivered <= sent, no rate over
 * 100%. The reference below reads the events themselves, not the send columns the SQL reads.
 */

const NOW = new Date("2026-11-22T10:00:00.000Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const URLS = ["https://a.example/1", "https://a.example/2", "https://b.example/"];
const PROVIDERS = ["gmail", "microsoft", "yahoo", "other"] as const;
const TYPES = ["campaign", "transactional", "sequence"] as const;
const PERIOD_DAYS = { "1h": 1 / 24, "24h": 1, "7d": 7, "30d": 30, "90d": 90 } as const;

const eventArb = fc.record({
  type: fc.constantFrom<HistoryEventType>("delivery", "delivery", "open", "open", "click", "bounce", "complaint", "unsubscribe", "reply"),
  // Events come up to two weeks after the send, whatever the period.
  afterMs: fc.integer({ min: 1, max: 14 * DAY }),
  machine: fc.boolean(),
  url: fc.constantFrom(...URLS),
  bounceType: fc.constantFrom("Permanent", "Transient", "Undetermined"),
  bounceSubType: fc.constantFrom("General", "MailboxFull", "Suppressed"),
});

const sendArb = fc.record({
  // Sent up to 40 days ago; a few never sent.
  sentAgoMs: fc.option(fc.integer({ min: 0, max: 40 * DAY }), { freq: 8 }),
  emailType: fc.constantFrom(...TYPES),
  mailboxProvider: fc.constantFrom(...PROVIDERS),
  isTest: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
  events: fc.array(eventArb, { maxLength: 8 }),
});

const queryArb = fc.record(
  {
    period: fc.constantFrom<keyof typeof PERIOD_DAYS>("1h", "24h", "7d", "30d", "30d", "90d", "90d"),
    includeMachineEngagement: fc.boolean(),
    emailType: fc.constantFrom(...TYPES),
    mailboxProvider: fc.constantFrom(...PROVIDERS),
  },
  { requiredKeys: ["period", "includeMachineEngagement"] },
);

type ValueOf<A> = A extends fc.Arbitrary<infer T> ? T : never;
type RawSend = ValueOf<typeof sendArb>;
type Query = ValueOf<typeof queryArb>;

function toHistory(send: RawSend, id: string): SendHistory {
  const sentAt = send.sentAgoMs === null ? null : new Date(NOW.getTime() - send.sentAgoMs);
  const base = sentAt ?? NOW;
  const events: HistoryEvent[] = send.events.map((event) => {
    const at = new Date(base.getTime() + event.afterMs);
    const engagement = event.type === "open" || event.type === "click";
    return {
      type: event.type,
      at,
      ...(engagement ? { machine: event.machine } : {}),
      ...(event.type === "click" ? { url: event.url } : {}),
      ...(event.type === "bounce" ? { bounceType: event.bounceType, bounceSubType: event.bounceSubType } : {}),
    };
  });
  return { id, sentAt, emailType: send.emailType, mailboxProvider: send.mailboxProvider, isTest: send.isTest, events: sentAt ? events : [] };
}

const pct = (count: number, denominator: number) => (denominator === 0 ? 0 : Math.min(100, Math.round((count * 10_000) / denominator) / 100));

/** The metrics read straight from the events. */
function bruteForce(sends: readonly SendHistory[], query: Query) {
  const start = NOW.getTime() - PERIOD_DAYS[query.period] * DAY;
  const selected = sends.filter(
    (send) =>
      send.sentAt !== null &&
      send.sentAt.getTime() >= start &&
      send.sentAt.getTime() <= NOW.getTime() &&
      !send.isTest &&
      (query.emailType === undefined || send.emailType === query.emailType) &&
      (query.mailboxProvider === undefined || send.mailboxProvider === query.mailboxProvider),
  );
  const has = (send: SendHistory, type: HistoryEventType, human = false) =>
    (send.events ?? []).some((event) => event.type === type && (!human || !event.machine));
  const countOf = (predicate: (send: SendHistory) => boolean) => selected.filter(predicate).length;
  const human = !query.includeMachineEngagement;
  const sent = selected.length;
  const deliveryEvents = countOf((send) => has(send, "delivery"));
  const delivered = countOf((send) => (["delivery", "open", "click", "reply", "complaint", "unsubscribe"] as const).some((type) => has(send, type)));
  const latestBounce = (send: SendHistory) =>
    [...(send.events ?? [])]
      .filter((event) => event.type === "bounce")
      .sort((a, b) => a.at.getTime() - b.at.getTime())
      .pop();
  const opened = countOf((send) => has(send, "open", human));
  const clicked = countOf((send) => has(send, "click", human));
  const replies = query.mailboxProvider ? 0 : countOf((send) => has(send, "reply"));
  const denominator = deliveryEvents > 0 ? delivered : sent;
  const links = URLS.map((url) => ({
    url,
    clicks: countOf((send) => (send.events ?? []).some((e) => e.type === "click" && e.url === url && (!human || !e.machine))),
  }))
    .filter((link) => link.clicks > 0)
    .sort((a, b) => b.clicks - a.clicks || (a.url < b.url ? -1 : 1));
  const machine = (send: SendHistory, type: HistoryEventType) => (send.events ?? []).some((event) => event.type === type && event.machine);
  return {
    stats: {
      sent,
      delivered,
      bounced: countOf((send) => has(send, "bounce")),
      opened,
      clicked,
      replies,
      complaints: countOf((send) => has(send, "complaint")),
      unsubscribed: countOf((send) => has(send, "unsubscribe")),
      rateDenominator: denominator,
      rateDenominatorBasis: deliveryEvents > 0 ? "delivered" : "sent",
      openRate: pct(opened, denominator),
      clickRate: pct(clicked, denominator),
    },
    bounces: {
      permanent: countOf((send) => latestBounce(send)?.bounceType === "Permanent"),
      transient: countOf((send) => latestBounce(send)?.bounceType === "Transient"),
      undetermined: countOf((send) => latestBounce(send)?.bounceType === "Undetermined"),
    },
    engagementBreakdown: {
      human: { opens: countOf((send) => has(send, "open", true)), clicks: countOf((send) => has(send, "click", true)) },
      machine: { opens: countOf((send) => machine(send, "open")), clicks: countOf((send) => machine(send, "click")) },
    },
    clickedLinks: links.map((link) => ({ ...link, percentage: pct(link.clicks, clicked) })),
  };
}

for (const dialect of dialects()) {
  test.serial(`${dialect.name}: metrics of random send histories equal a brute-force reading of their events`, async (t) => {
    const knex = await openTestKnex(t, dialect);
    await migrateToLatest(knex);
    const metrics = new GetAccountMetrics(new KnexMetricsQueries(knex), new ManualClock(NOW), new KnexCommerceForecasts(knex));
    let run = 0;
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(sendArb, { maxLength: 25 }), fc.array(queryArb, { minLength: 1, maxLength: 4 }), async (raw, queries) => {
        run += 1;
        // Each run is a company of its own beside the earlier ones: tenancy is checked too.
        const companyId = `cmp_${run}`;
        await insertCompanyRow(knex, companyId);
        const sends = raw.map((send, i) => toHistory(send, `snd_${run}_${i}`));
        await insertSendHistories(knex, companyId, sends);
        // The unfiltered 90 days see every send made (all within 40 days): no run is only empty answers.
        for (const query of [...queries, { period: "90d", includeMachineEngagement: false } as Query]) {
          const result = await metrics.execute({ companyId } as Actor, query);
          if (result._tag === "Left") throw new Error(result.left.message);
          const actual = result.right;
          const expected = bruteForce(sends, query);
          if (expected.stats.sent > 0) nonEmpty += 1;
          const { stats } = actual;
          // The invariants, whatever the reference says.
          if (!(stats.opened <= stats.delivered && stats.clicked <= stats.delivered && stats.delivered <= stats.sent))
            throw new Error(`funnel out of order: ${JSON.stringify(stats)}`);
          for (const [key, value] of Object.entries(stats)) {
            if (key.endsWith("Rate") && (typeof value !== "number" || value < 0 || value > 100)) throw new Error(`${key} = ${String(value)}`);
          }
          t.like(stats, expected.stats, JSON.stringify({ query, sends }));
          t.like(actual.bounceBreakdown, expected.bounces);
          t.is(actual.bounceBreakdown.permanent + actual.bounceBreakdown.transient + actual.bounceBreakdown.undetermined, stats.bounced);
          t.is(
            actual.bounceBreakdown.subtypes.reduce((sum, entry) => sum + entry.count, 0),
            stats.bounced,
          );
          t.deepEqual(actual.engagementBreakdown, expected.engagementBreakdown);
          t.deepEqual(actual.clickedLinks, expected.clickedLinks);
        }
      }),
      { numRuns: 40 },
    );
    t.true(nonEmpty > 10, "enough of the runs looked at sends");
  });
}
