import test from "ava";
import type { Knex } from "knex";
import { migrateToLatest } from "../../adapters/knex/migrate.js";
import { KnexRetentionSweeper } from "../../adapters/knex/retention-sweeper.js";
import { toDbDate } from "../../adapters/knex/row-codecs.js";
import { ManualClock } from "../../adapters/memory/manual-clock.js";
import { DEFAULT_RETENTION } from "../../core/retention/policy.js";
import { SweepRetention } from "../../core/retention/sweep-retention.js";
import { sendHistoryRows } from "../../fixtures/email-sends.js";
import { insertCompanyRow } from "../helpers/contact-rows.js";
import { dialects, openTestKnex } from "../helpers/databases.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

/** SQLite caps a multi-row insert at 500 terms. */
async function insertInChunks(knex: Knex, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  for (let start = 0; start < rows.length; start += 400) await knex(table).insert(rows.slice(start, start + 400));
}

const job = (id: string, status: string, at: Date, completed: boolean) => ({
  id,
  type: "test.job",
  payload: "{}",
  status,
  run_at: toDbDate(at),
  max_attempts: 10,
  created_at: toDbDate(at),
  updated_at: toDbDate(at),
  completed_at: completed ? toDbDate(at) : null,
});

const idempotencyRecord = (companyId: string, key: string, expiresAt: Date) => ({
  company_id: companyId,
  idempotency_key: key,
  method: "POST",
  path: "/x",
  request_hash: "h",
  status: "completed",
  response_status: 200,
  response_body: "{}",
  created_at: toDbDate(new Date(expiresAt.getTime() - DAY)),
  expires_at: toDbDate(expiresAt),
});

async function insertSend(knex: Knex, companyId: string, id: string, sentAt: Date | null, createdAt: Date, eventsAt: readonly Date[] = []) {
  const rows = sendHistoryRows(companyId, { id, sentAt, events: eventsAt.map((at) => ({ type: "open" as const, at })) });
  await knex("email_sends").insert({ ...rows.send, created_at: toDbDate(createdAt) });
  await knex("email_send_contents").insert({ email_send_id: id, created_at: toDbDate(createdAt), html: `<p>${id}</p>`, text: id });
  await insertInChunks(knex, "email_events", rows.events);
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: retention: ${title}`;

  async function prepare(t: Parameters<typeof openTestKnex>[0]) {
    const knex = await openTestKnex(t, dialect);
    await migrateToLatest(knex);
    await insertCompanyRow(knex, "co_a");
    await insertCompanyRow(knex, "co_b");
    return knex;
  }

  test(name("old rows go in batches, recent ones stay, bodies are blanked and their sends kept"), async (t) => {
    const knex = await prepare(t);
    const oldCompleted = Array.from({ length: 2_500 }, (_, i) => job(`job_old_${String(i).padStart(4, "0")}`, "completed", daysAgo(8), true));
    await insertInChunks(knex, "jobs", [
      ...oldCompleted,
      job("job_recent_done", "completed", daysAgo(6), true),
      job("job_old_dead", "dead", daysAgo(31), false),
      job("job_recent_dead", "dead", daysAgo(29), false),
      // Queued long ago and not yet due: never swept, whatever its age.
      { ...job("job_waiting", "queued", daysAgo(100), false), run_at: toDbDate(new Date(NOW.getTime() + DAY)) },
    ]);
    await knex("idempotency_keys").insert([
      idempotencyRecord("co_a", "old", daysAgo(1 / 24)),
      idempotencyRecord("co_a", "live", new Date(NOW.getTime() + DAY)),
    ]);
    await insertSend(knex, "co_a", "snd_old", daysAgo(40), daysAgo(40), [daysAgo(39)]);
    await insertSend(knex, "co_a", "snd_stuck", null, daysAgo(40));
    await insertSend(knex, "co_a", "snd_recent", daysAgo(29), daysAgo(29));
    await insertSend(knex, "co_a", "snd_ancient", daysAgo(500), daysAgo(500), [daysAgo(401), daysAgo(399)]);
    await insertSend(
      knex,
      "co_b",
      "snd_b",
      daysAgo(500),
      daysAgo(500),
      Array.from({ length: 1_200 }, (_, i) => new Date(daysAgo(450).getTime() + i * 1_000)),
    );

    const swept = await new SweepRetention(new KnexRetentionSweeper(knex), DEFAULT_RETENTION, new ManualClock(NOW)).execute();

    t.deepEqual(swept, { completedJobs: 2_500, deadJobs: 1, idempotencyKeys: 1, emailBodies: 3, deliveryEvents: 1_201 });
    t.deepEqual((await knex("jobs").orderBy("id").pluck("id")).sort(), ["job_recent_dead", "job_recent_done", "job_waiting"]);
    t.deepEqual(await knex("idempotency_keys").pluck("idempotency_key"), ["live"]);
    const sends = await knex("email_sends")
      .leftJoin("email_send_contents", "email_send_contents.email_send_id", "email_sends.id")
      .orderBy("id")
      .select("id", "html", "text", "status", "first_opened_at");
    t.deepEqual(
      sends.map((send) => [send.id, send.html, send.text, send.status]),
      [
        ["snd_ancient", null, null, "sent"],
        ["snd_b", null, null, "sent"],
        ["snd_old", null, null, "sent"],
        ["snd_recent", "<p>snd_recent</p>", "snd_recent", "sent"],
        ["snd_stuck", "<p>snd_stuck</p>", "snd_stuck", "pending"],
      ],
      "sends stay; old bodies go, except a pending send's, which is still to be delivered",
    );
    t.not(sends.find((send) => send.id === "snd_old").first_opened_at, null, "what metrics count stays on the send");
    t.deepEqual(
      (await knex("email_events").orderBy("event_time").select("email_send_id", "event_time")).map((event) => [
        event.email_send_id,
        new Date(event.event_time).toISOString(),
      ]),
      [
        ["snd_ancient", daysAgo(399).toISOString()],
        ["snd_old", daysAgo(39).toISOString()],
      ],
    );

    const again = await new SweepRetention(new KnexRetentionSweeper(knex), DEFAULT_RETENTION, new ManualClock(NOW)).execute();
    t.deepEqual(again, { completedJobs: 0, deadJobs: 0, idempotencyKeys: 0, emailBodies: 0, deliveryEvents: 0 }, "a second sweep finds nothing");
  });

  test(name("0 days keeps a kind forever"), async (t) => {
    const knex = await prepare(t);
    await knex("jobs").insert([job("job_done", "completed", daysAgo(1_000), true), job("job_dead", "dead", daysAgo(1_000), false)]);
    await insertSend(knex, "co_a", "snd_old", daysAgo(1_000), daysAgo(1_000), [daysAgo(1_000)]);
    const keepAll = { completedJobsDays: 0, deadJobsDays: 0, emailBodiesDays: 0, deliveryEventsDays: 0 };

    const swept = await new SweepRetention(new KnexRetentionSweeper(knex), keepAll, new ManualClock(NOW)).execute();

    t.deepEqual(swept, { completedJobs: 0, deadJobs: 0, idempotencyKeys: 0, emailBodies: 0, deliveryEvents: 0 });
    t.is((await knex("jobs").pluck("id")).length, 2);
    t.deepEqual(await knex("email_send_contents").pluck("html"), ["<p>snd_old</p>"]);
    t.is((await knex("email_events").pluck("id")).length, 1);
  });
}
