import { Cron } from "croner";
import * as t from "io-ts";
import type { Knex } from "knex";
import type { JobQueue, RecurringSchedule, ScheduleStore } from "../../core/ports/job-queue.js";
import { DbDate, DbInteger, dbJson, decodeRow, toDbDate } from "./row-codecs.js";

const ScheduleRow = t.type({
  name: t.string,
  type: t.string,
  payload: dbJson(t.record(t.string, t.unknown)),
  cron: t.union([t.string, t.null]),
  interval_ms: t.union([DbInteger, t.null]),
  next_run_at: DbDate,
});

/** The next run of a schedule after `from`: croner for cron expressions (UTC), else a fixed interval. */
export function nextRunAfter(schedule: { cron?: string | null; everyMs?: number | null }, from: Date): Date {
  if (schedule.cron) {
    const next = new Cron(schedule.cron, { timezone: "UTC", paused: true }).nextRun(from);
    if (!next) throw new Error(`cron expression ${schedule.cron} has no next run`);
    return next;
  }
  if (schedule.everyMs && schedule.everyMs > 0) return new Date(from.getTime() + schedule.everyMs);
  throw new Error("a recurring schedule needs a cron expression or a positive interval");
}

/**
 * Recurring schedules in `job_schedules`. Every worker ticks them; moving `next_run_at` with a
 * compare-and-set decides which one enqueues, and the job's singleton key keeps at most one
 * run of a schedule queued or running.
 */
export class KnexScheduleStore implements ScheduleStore {
  constructor(
    private readonly knex: Knex,
    private readonly queue: JobQueue,
  ) {}

  async register(schedules: readonly RecurringSchedule[], now: Date): Promise<void> {
    for (const schedule of schedules) {
      const definition = {
        type: schedule.job.type,
        payload: JSON.stringify(schedule.job.payload ?? {}),
        cron: schedule.cron ?? null,
        interval_ms: schedule.everyMs ?? null,
      };
      const existing = await this.knex("job_schedules").where({ name: schedule.name }).first();
      if (!existing) {
        await this.knex("job_schedules")
          .insert({ name: schedule.name, ...definition, next_run_at: toDbDate(nextRunAfter(schedule, now)), updated_at: toDbDate(now) })
          .onConflict("name")
          .ignore();
        continue;
      }
      const row = decodeRow(ScheduleRow, existing, "job_schedules");
      const changed = row.cron !== definition.cron || row.interval_ms !== definition.interval_ms || row.type !== definition.type;
      await this.knex("job_schedules")
        .where({ name: schedule.name })
        .update({ ...definition, ...(changed ? { next_run_at: toDbDate(nextRunAfter(schedule, now)) } : {}), updated_at: toDbDate(now) });
    }
  }

  async enqueueDue(now: Date): Promise<number> {
    const due = (await this.knex("job_schedules").where("next_run_at", "<=", toDbDate(now))).map((row) => decodeRow(ScheduleRow, row, "job_schedules"));
    let enqueued = 0;
    for (const schedule of due) {
      const next = nextRunAfter({ cron: schedule.cron, everyMs: schedule.interval_ms }, now);
      const won = await this.knex("job_schedules")
        .where({ name: schedule.name, next_run_at: toDbDate(schedule.next_run_at) })
        .update({ next_run_at: toDbDate(next), updated_at: toDbDate(now) });
      if (won === 0) continue;
      await this.queue.enqueue({ type: schedule.type, payload: schedule.payload, singletonKey: `schedule:${schedule.name}` });
      enqueued += 1;
    }
    return enqueued;
  }
}
