import type { Knex } from "knex";
import { isPostgres } from "../adapters/knex/connection.js";
import { GetAccountMetrics } from "../core/metrics/get-account-metrics.js";
import type { Actor } from "../core/shared/actor.js";
import { createCompanyFixture } from "../fixtures/companies.js";
import { sendHistoryRows, type HistoryEvent, type SendHistory } from "../fixtures/email-sends.js";
import { infoLogTo } from "./log-file.js";
import { durationLine } from "./rounds.js";
import { startRuntime } from "../hosts/runtime.js";
import { count } from "./settings.js";
import { medianOfRuns, random } from "./statistics.js";
import { postgresTarget, sqliteTarget, type Target } from "./targets.js";

/**
 * `GET /metrics?period=30d` work without HTTP: the GetAccountMetrics use case (funnel, bounce
 * subtypes, machine engagement, top clicked links, contact counts) for one company holding
 * 250,000 sends spread over the last 90 days with about 1,000,000 events (deliveries, bounces,
 * human and machine opens and clicks over 30 links, complaints, unsubscribes, replies). The
 * figure is the median of several runs after a warm-up.
 */

/** Sends seeded (BENCH_SENDS, fewer in the quick run). */
const SENDS = count("BENCH_SENDS", 250_000);
const SPAN_DAYS = 90;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.now();
const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";
const LINKS = Array.from({ length: 30 }, (_, i) => `https://shop.example/products/${i}`);

const PROVIDERS = ["gmail", "gmail", "gmail", "microsoft", "microsoft", "yahoo", "icloud", "orange", "other", "other"];
const TYPES = ["campaign", "campaign", "campaign", "sequence", "transactional"] as const;

function history(next: () => number, i: number): SendHistory {
  const sentAt = NOW - next() * SPAN_DAYS * DAY;
  const at = (afterHours: number) => new Date(sentAt + afterHours * HOUR);
  const events: HistoryEvent[] = [];
  const times = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const bounce = next();
  if (bounce < 0.04) {
    events.push({
      type: "bounce",
      at: at(0.01),
      bounceType: bounce < 0.03 ? "Permanent" : "Transient",
      bounceSubType: bounce < 0.025 ? "General" : "MailboxFull",
    });
  } else {
    events.push({ type: "delivery", at: at(0.01) });
    if (next() < 0.4) for (let n = times(1, 2); n > 0; n -= 1) events.push({ type: "open", at: at(0.02), machine: true });
    if (next() < 0.5) for (let n = times(1, 6); n > 0; n -= 1) events.push({ type: "open", at: at(1 + next() * 200) });
    if (next() < 0.08) events.push({ type: "click", at: at(0.02), machine: true, url: LINKS[Math.floor(next() * LINKS.length)]! });
    if (next() < 0.2)
      for (let n = times(1, 3); n > 0; n -= 1) events.push({ type: "click", at: at(2 + next() * 200), url: LINKS[Math.floor(next() ** 2 * LINKS.length)]! });
    if (next() < 0.01) events.push({ type: "reply", at: at(5) });
    if (next() < 0.005) events.push({ type: "unsubscribe", at: at(6) });
    if (next() < 0.001) events.push({ type: "complaint", at: at(7) });
  }
  return {
    id: `snd_bench_${String(i).padStart(7, "0")}`,
    sentAt: new Date(sentAt),
    emailType: TYPES[Math.floor(next() * TYPES.length)]!,
    mailboxProvider: PROVIDERS[Math.floor(next() * PROVIDERS.length)]!,
    isTest: next() < 0.01,
    events,
  };
}

/** Bulk rows in one transaction; returns the events written and the sends the 30-day funnel should count. */
async function seed(knex: Knex, companyId: string): Promise<{ events: number; expectedSent: number }> {
  const next = random(7);
  // SQLite caps a compound insert at 500 rows; Postgres at 65,535 parameters.
  const batch = isPostgres(knex) ? 2_000 : 400;
  const since = NOW - 30 * DAY;
  let events = 0;
  let expectedSent = 0;
  await knex.transaction(async (trx) => {
    for (let start = 0; start < SENDS; start += batch) {
      const rows = [];
      for (let i = start; i < Math.min(start + batch, SENDS); i += 1) {
        const send = history(next, i);
        if (!send.isTest && send.sentAt!.getTime() >= since) expectedSent += 1;
        rows.push(sendHistoryRows(companyId, send));
      }
      await trx("email_sends").insert(rows.map((row) => row.send));
      const eventRows = rows.flatMap((row) => row.events);
      events += eventRows.length;
      for (let at = 0; at < eventRows.length; at += batch) await trx("email_events").insert(eventRows.slice(at, at + batch));
    }
  });
  // Statistics as a database in service has them (autovacuum, or ANALYZE after a bulk load).
  await knex.raw(isPostgres(knex) ? "vacuum analyze email_sends, email_events" : "analyze");
  return { events, expectedSent };
}

async function metricsBenchmark(label: string, goalMs: number, target: Target): Promise<string> {
  const runs = count("BENCH_ROUNDS", 15);
  try {
    const runtime = await startRuntime({ databaseUrl: target.url, logger: infoLogTo("/dev/null"), baseUrl: "http://127.0.0.1" });
    try {
      const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
      const seeding = performance.now();
      const { events, expectedSent } = await seed(runtime.knex, company.companyId);
      process.stderr.write(
        `${label}: ${SENDS} sends over ${SPAN_DAYS} days, ${events} events, seeded in ${Math.round(performance.now() - seeding)} ms; ${expectedSent} sends in the last 30 days\n`,
      );

      // Only the company matters to this use case.
      const actor = { companyId: company.companyId, memberId: company.ownerMemberId, apiKeyId: company.ownerKeyId } as Actor;
      const metrics = runtime.container.get(GetAccountMetrics);
      const once = async (): Promise<number> => {
        const started = performance.now();
        const result = await metrics.execute(actor, { period: "30d" });
        const elapsed = performance.now() - started;
        if (result._tag === "Left") throw new Error(`bench ${label}: ${result.left.message}`);
        // Sends made in the last moments of seeding may have left the window since: allow a few.
        if (Math.abs(result.right.stats.sent - expectedSent) > 50)
          throw new Error(`bench ${label}: counted ${result.right.stats.sent} sends, expected ${expectedSent}`);
        if (result.right.clickedLinks.length !== 20) throw new Error(`bench ${label}: ${result.right.clickedLinks.length} clicked links`);
        return elapsed;
      };
      return durationLine(label, await medianOfRuns(once, runs), runs, goalMs, ["LOG_LEVEL=info to /dev/null"]);
    } finally {
      await runtime.close();
    }
  } finally {
    await target.drop();
  }
}

export async function metricsSqlite(): Promise<string> {
  return metricsBenchmark("metrics-sqlite", 300, sqliteTarget());
}

export async function metricsPostgres(): Promise<string> {
  return metricsBenchmark("metrics-postgres", 100, await postgresTarget("metrics-postgres", process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL));
}
