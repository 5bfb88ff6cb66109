import * as t from "io-ts";
import type { Knex } from "knex";
import type { DeliveryJob } from "../../../core/delivery/ports.js";
import type { IdGenerator } from "../../../core/ports/id-generator.js";
import {
  ACTIVE_SENDING,
  PAUSE_REASON_KINDS,
  SENDING_STATUSES,
  type PauseReasonKind,
  type SendingState,
  type SendingStatus,
} from "../../../core/sending-health/model.js";
import type { SendingStateChange, SendingStatusRepository } from "../../../core/sending-health/ports.js";
import { RECENT_SENDS, type BounceWindow, type ComplaintWindow } from "../../../core/sending-health/thresholds.js";
import { chunksOf } from "../../../core/shared/chunks.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { isPostgres } from "../connection.js";
import { announceJobs, newJobRow } from "../knex-job-queue.js";
import { DbDate, DbInteger, DbNullableDate, decodeRow, toDbDate } from "../row-codecs.js";

const SendingStatusRow = t.type({
  status: oneOf<SendingStatus>(SENDING_STATUSES),
  pause_reason_kind: t.union([oneOf<PauseReasonKind>(PAUSE_REASON_KINDS), t.null]),
  pause_reason: t.union([t.string, t.null]),
  paused_at: DbNullableDate,
  bounce_reset_at: DbNullableDate,
  complaint_reset_at: DbNullableDate,
  updated_at: DbDate,
});

/** Null sums (no rows) count as zero. */
const Count = t.union([DbInteger, t.null]);
const WindowRow = t.type({ sends: Count, hard_bounces: Count, soft_bounces: Count, complaints: Count });

/** Held sends queued again per delivery job, as when they were first queued together. */
const SENDS_PER_DELIVERY = 50;

function toState(row: unknown): SendingState {
  const r = decodeRow(SendingStatusRow, row, "sending_statuses");
  return {
    status: r.status,
    pauseReasonKind: r.pause_reason_kind,
    pauseReason: r.pause_reason,
    pausedAt: r.paused_at,
    bounceResetAt: r.bounce_reset_at,
    complaintResetAt: r.complaint_reset_at,
  };
}

const toRow = (state: SendingState, at: Date) => ({
  status: state.status,
  pause_reason_kind: state.pauseReasonKind,
  pause_reason: state.pauseReason,
  paused_at: toDbDate(state.pausedAt),
  bounce_reset_at: toDbDate(state.bounceResetAt),
  complaint_reset_at: toDbDate(state.complaintResetAt),
  updated_at: toDbDate(at),
});

/** `sending_statuses` (a row once a company's state first changes) and `email_sends.held_at`. */
export class KnexSendingStatusRepository implements SendingStatusRepository {
  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
  ) {}

  async get(companyId: string): Promise<SendingState> {
    const row = await this.knex("sending_statuses").where({ company_id: companyId }).first();
    return row ? toState(row) : ACTIVE_SENDING;
  }

  async change(companyId: string, decide: (current: SendingState) => SendingState | null, at: Date, release?: DeliveryJob): Promise<SendingStateChange> {
    const jobs: Array<ReturnType<typeof newJobRow>> = [];
    const result = await this.knex.transaction(async (trx): Promise<SendingStateChange> => {
      // Writing first makes a SQLite transaction the writer at once, and gives Postgres a row to lock.
      await trx("sending_statuses")
        .insert({ company_id: companyId, ...toRow(ACTIVE_SENDING, at) })
        .onConflict("company_id")
        .ignore();
      const select = trx("sending_statuses").where({ company_id: companyId });
      const before = toState(await (isPostgres(trx) ? select.forUpdate() : select).first());
      const after = decide(before);
      if (!after) return { before, after: before, changed: false, released: 0 };
      await trx("sending_statuses").where({ company_id: companyId }).update(toRow(after, at));
      if (!release || after.status !== "active") return { before, after, changed: true, released: 0 };
      const held = await trx("email_sends").where({ company_id: companyId, status: "pending" }).whereNotNull("held_at").select("id");
      const sendIds = held.map((row: { id: string }) => row.id);
      for (const run of chunksOf(sendIds, SENDS_PER_DELIVERY)) {
        await trx("email_sends").where({ company_id: companyId }).whereIn("id", run).update({ held_at: null });
        jobs.push(newJobRow(release(companyId, run), this.ids.next("job"), at));
      }
      for (const run of chunksOf(jobs, SENDS_PER_DELIVERY)) await trx("jobs").insert(run);
      return { before, after, changed: true, released: sendIds.length };
    });
    if (jobs.length > 0)
      await announceJobs(
        this.knex,
        jobs.map((job) => job.type),
      );
    return result;
  }

  async hold(companyId: string, expected: SendingStatus, sendIds: readonly string[], at: Date): Promise<boolean> {
    if (sendIds.length === 0) return true;
    const knex = this.knex;
    // One statement: the status it checks cannot change before the sends are marked. On Postgres,
    // FOR SHARE waits for a resume in progress and then reads the state it left.
    const stillExpected = knex("sending_statuses").select(knex.raw("1")).where({ company_id: companyId, status: expected });
    if (isPostgres(knex)) stillExpected.forShare();
    const held = await knex("email_sends")
      .where({ company_id: companyId, status: "pending" })
      .whereIn("id", [...sendIds])
      .whereExists(stillExpected)
      .update({ held_at: toDbDate(at) });
    // None marked: either the status moved on, or the sends are no longer pending (then not ours to hold).
    return held > 0 || (await this.get(companyId)).status === expected;
  }

  async countHeld(companyId: string): Promise<number> {
    const row = await this.knex("email_sends").where({ company_id: companyId, status: "pending" }).whereNotNull("held_at").count({ n: "*" }).first();
    return Number(row?.n ?? 0);
  }

  async bounceWindow(companyId: string, since: Date | null): Promise<BounceWindow> {
    const row = await this.window(companyId, since, (recent) =>
      recent.select(
        this.knex.raw("count(*) as sends"),
        this.knex.raw("sum(case when bounce_type = 'Permanent' then 1 else 0 end) as hard_bounces"),
        this.knex.raw("sum(case when bounce_type = 'Transient' then 1 else 0 end) as soft_bounces"),
        this.knex.raw("0 as complaints"),
      ),
    );
    return { sends: row.sends ?? 0, hardBounces: row.hard_bounces ?? 0, softBounces: row.soft_bounces ?? 0 };
  }

  async complaintWindow(companyId: string, since: Date | null): Promise<ComplaintWindow> {
    const row = await this.window(companyId, since, (recent) =>
      recent.select(
        this.knex.raw("count(*) as sends"),
        this.knex.raw("0 as hard_bounces"),
        this.knex.raw("0 as soft_bounces"),
        this.knex.raw("sum(case when complained_at is not null then 1 else 0 end) as complaints"),
      ),
    );
    return { sends: row.sends ?? 0, complaints: row.complaints ?? 0 };
  }

  /** Totals over the company's latest RECENT_SENDS sends handed to the mail server after `since` (test sends aside), newest first by the (company_id, sent_at) index. */
  private async window(companyId: string, since: Date | null, totals: (recent: Knex.QueryBuilder) => Knex.QueryBuilder): Promise<t.TypeOf<typeof WindowRow>> {
    const latest = this.knex("email_sends")
      .select("bounce_type", "complained_at")
      .where({ company_id: companyId, is_test: false })
      .whereNotNull("sent_at")
      .orderBy("sent_at", "desc")
      .limit(RECENT_SENDS);
    if (since) latest.where("sent_at", ">", toDbDate(since));
    const row = await totals(this.knex.from(latest.as("recent"))).first();
    return decodeRow(WindowRow, row, "email_sends");
  }
}
