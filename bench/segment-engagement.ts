import type { Knex } from "knex";
import { isPostgres } from "../adapters/knex/connection.js";
import { toDbDate } from "../adapters/knex/row-codecs.js";
import { CountSegment } from "../core/segments/count-segment.js";
import { CreateSegment } from "../core/segments/create-segment.js";
import type { Actor } from "../core/shared/actor.js";
import { createCompanyFixture } from "../fixtures/companies.js";
import { infoLogTo } from "./log-file.js";
import { durationLine } from "./rounds.js";
import { startRuntime } from "../hosts/runtime.js";
import { count } from "./settings.js";
import { medianOfRuns, random } from "./statistics.js";
import { postgresTarget, sqliteTarget, type Target } from "./targets.js";

/**
 * `GET /segments/{id}/count` work without HTTP (the CountSegment use case: segment lookup,
 * reference check, one SQL query) for an engagement segment over 100,000 contacts and the
 * email sent to them: about 400,000 sends over 180 days and 1,000,000 email events (send,
 * delivery, people's and scanners' opens, clicks, bounces). The segment: status is active AND
 * opened at least 2 emails in the last 90 days AND clicked none in the last 30. The count is
 * checked against the seeding's own reckoning; the figure is the median of several runs after a
 * warm-up.
 */

const CONTACTS = count("BENCH_CONTACTS", 100_000);
const GOAL_MS = 200;
const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";
const NOW = Date.now();
const DAY = 86_400_000;
const SPAN_DAYS = 180;
/** Rows per insert: SQLite caps a statement's parameters, and knex writes one per column. */
const BATCH = 200;

/** The segment's cut-offs at seeding time; times just after one would leave its window while the benchmark runs. */
const CUTOFFS = [NOW - 90 * DAY, NOW - 30 * DAY];
const clearOfCutoffs = (time: number): number => CUTOFFS.reduce((t, cutoff) => (t >= cutoff && t < cutoff + 2 * 3_600_000 ? cutoff + 2 * 3_600_000 : t), time);

interface Seeded {
  readonly sends: number;
  readonly events: number;
  readonly expected: number;
}

/** Contacts, their sends and the sends' events, in batches; returns how many contacts the segment should count. */
async function seed(knex: Knex, companyId: string): Promise<Seeded> {
  const next = random(7);
  let sends = 0;
  let events = 0;
  let expected = 0;
  const at = (ms: number) => toDbDate(new Date(ms));
  await knex.transaction(async (trx) => {
    for (let start = 0; start < CONTACTS; start += BATCH) {
      const contactRows: Record<string, unknown>[] = [];
      const sendRows: Record<string, unknown>[] = [];
      const eventRows: Record<string, unknown>[] = [];
      for (let i = start; i < Math.min(start + BATCH, CONTACTS); i += 1) {
        const id = `sub_bench_${String(i).padStart(6, "0")}`;
        const email = `contact${i}@example${i % 97}.com`;
        const status = next() < 0.85 ? "active" : "unsubscribed";
        const created = at(NOW - SPAN_DAYS * DAY);
        contactRows.push({ id, company_id: companyId, email, status, custom_attributes: "{}", created_at: created, updated_at: created });
        let openedIn90 = 0;
        let clickedIn30 = false;
        const sent = Math.floor(next() * 9);
        for (let n = 0; n < sent; n += 1) {
          sends += 1;
          const sendId = `send_bench_${sends}`;
          const sentAt = NOW - 2 * 3_600_000 - next() * SPAN_DAYS * DAY;
          const event = (type: string, time: number, extra: Record<string, unknown> = {}) => {
            events += 1;
            eventRows.push({
              id: `eev_bench_${events}`,
              company_id: companyId,
              email_send_id: sendId,
              event_type: type,
              event_time: at(time),
              created_at: at(time),
              machine: false,
              machine_reason: null,
              url: null,
              bounce_type: null,
              ...extra,
            });
          };
          event("send", sentAt);
          const bounced = next() < 0.02;
          const delivered = !bounced;
          if (bounced) event("bounce", sentAt + 60_000, { bounce_type: "Permanent" });
          else event("delivery", sentAt + 5_000);
          const scanner = delivered && next() < 0.15 ? sentAt + 10_000 : null;
          if (scanner) event("open", scanner, { machine: true, machine_reason: "scanner_user_agent" });
          const opened = delivered && next() < 0.4 ? clearOfCutoffs(Math.min(sentAt + next() * 3 * DAY, NOW - 3_600_000)) : null;
          if (opened) event("open", opened);
          const clicked = opened && next() < 0.25 ? opened + 30_000 : null;
          if (clicked) event("click", clicked, { url: "https://example.com/pricing" });
          if (opened && opened >= NOW - 90 * DAY) openedIn90 += 1;
          if (clicked && clicked >= NOW - 30 * DAY) clickedIn30 = true;
          sendRows.push({
            id: sendId,
            company_id: companyId,
            subscriber_id: id,
            recipient_email: email,
            email_type: "campaign",
            subject: "News",
            sender_email: "news@example.com",
            status: bounced ? "bounced" : "delivered",
            mailbox_provider: "other",
            sent_at: at(sentAt),
            delivered_at: delivered ? at(sentAt + 5_000) : null,
            first_opened_at: scanner || opened ? at(Math.min(scanner ?? Infinity, opened ?? Infinity)) : null,
            first_human_opened_at: opened ? at(opened) : null,
            first_machine_opened_at: scanner ? at(scanner) : null,
            first_clicked_at: clicked ? at(clicked) : null,
            first_human_clicked_at: clicked ? at(clicked) : null,
            bounced_at: bounced ? at(sentAt + 60_000) : null,
            bounce_type: bounced ? "Permanent" : null,
            created_at: at(sentAt),
            updated_at: at(sentAt),
          });
        }
        if (status === "active" && openedIn90 >= 2 && !clickedIn30) expected += 1;
      }
      await trx("subscribers").insert(contactRows);
      for (let i = 0; i < sendRows.length; i += BATCH) await trx("email_sends").insert(sendRows.slice(i, i + BATCH));
      for (let i = 0; i < eventRows.length; i += BATCH) await trx("email_events").insert(eventRows.slice(i, i + BATCH));
    }
  });
  return { sends, events, expected };
}

async function segmentEngagement(label: string, target: Target): Promise<string> {
  const runs = count("BENCH_ROUNDS", 15);
  try {
    const runtime = await startRuntime({ databaseUrl: target.url, logger: infoLogTo("/dev/null"), baseUrl: "http://127.0.0.1" });
    try {
      const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
      const seeding = performance.now();
      const seeded = await seed(runtime.knex, company.companyId);
      // What autovacuum does to a table in steady state: statistics, and the visibility map that lets index-only scans skip the table.
      if (isPostgres(runtime.knex)) await runtime.knex.raw("vacuum analyze subscribers, email_sends, email_events");
      process.stderr.write(
        `${label}: ${CONTACTS} contacts, ${seeded.sends} sends, ${seeded.events} events seeded in ${Math.round(performance.now() - seeding)} ms; ${seeded.expected} match\n`,
      );

      // Only the company matters to these use cases.
      const actor = { companyId: company.companyId, memberId: company.ownerMemberId, apiKeyId: company.ownerKeyId } as Actor;
      const created = await runtime.container.get(CreateSegment).execute(actor, {
        name: "Active openers who stopped clicking",
        filterJoinOperator: "and",
        filters: [
          { field: "status", operator: "is", value: "active" },
          { field: "emailOpened", operator: "at_least", value: "2:90d" },
          { field: "emailClicked", operator: "is_not", value: "30d" },
        ],
      });
      if (created._tag === "Left") throw new Error(`bench ${label}: segment not created: ${created.left.message}`);
      const countSegment = runtime.container.get(CountSegment);
      const once = async (): Promise<number> => {
        const started = performance.now();
        const result = await countSegment.execute(actor, created.right.id);
        const elapsed = performance.now() - started;
        if (result._tag === "Left") throw new Error(`bench ${label}: ${result.left.message}`);
        if (result.right.count !== seeded.expected) throw new Error(`bench ${label}: counted ${result.right.count}, expected ${seeded.expected}`);
        return elapsed;
      };
      return durationLine(label, await medianOfRuns(once, runs), runs, GOAL_MS, ["LOG_LEVEL=info to /dev/null"]);
    } finally {
      await runtime.close();
    }
  } finally {
    await target.drop();
  }
}

export const segmentEngagementSqlite = (): Promise<string> => segmentEngagement("segment-engagement-sqlite", sqliteTarget());

export const segmentEngagementPostgres = async (): Promise<string> =>
  segmentEngagement("segment-engagement-postgres", await postgresTarget("segment-engagement-postgres", process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL));
