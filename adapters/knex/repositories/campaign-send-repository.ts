import * as t from "io-ts";
import type { Knex } from "knex";
import type { CampaignSendRepository, FrozenRecipient, RecordBatchInput, StartSendInput } from "../../../core/campaigns/send-ports.js";
import {
  addExclusions,
  afterThrottle,
  EXCLUSION_REASONS,
  NO_EXCLUSIONS,
  type CampaignSendState,
  type ExclusionCounts,
} from "../../../core/campaigns/send-model.js";
import type { IdGenerator } from "../../../core/ports/id-generator.js";
import type { JobRequest } from "../../../core/ports/job-queue.js";
import type { SegmentDefinition } from "../../../core/segments/ports.js";
import { chunksOf } from "../../../core/shared/chunks.js";
import { isPostgres } from "../connection.js";
import { announceJobs, newJobRow } from "../knex-job-queue.js";
import { segmentQuery } from "../knex-segment-evaluator.js";
import { DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { campaignRecipientsQuery } from "./campaign-audience-queries.js";
import { insertSends } from "./email-send-repository.js";
import { toSubscriber } from "./subscriber-repository.js";

const NullableInteger = t.union([DbInteger, t.null]);
const Excluded = t.union([t.null, dbJson(t.record(t.string, t.number))]);

const SendStateRow = t.type({
  send_started_at: DbNullableDate,
  send_recipients: NullableInteger,
  send_queued: DbInteger,
  send_processed: DbInteger,
  send_excluded: Excluded,
  send_position: DbInteger,
  send_batch: DbInteger,
  send_batch_size: NullableInteger,
  send_window_ends_at: DbNullableDate,
});

const exclusionsOf = (stored: Readonly<Record<string, number>> | null): ExclusionCounts => addExclusions(NO_EXCLUSIONS, stored ?? {});

/** The send state kept on a `campaigns` row; null before its first send started. */
export function sendStateOf(row: unknown): CampaignSendState | null {
  const r = decodeRow(SendStateRow, row, "campaigns");
  if (!r.send_started_at || r.send_recipients === null || r.send_batch_size === null) return null;
  return {
    startedAt: r.send_started_at,
    recipients: r.send_recipients,
    queued: r.send_queued,
    processed: r.send_processed,
    excluded: exclusionsOf(r.send_excluded),
    position: r.send_position,
    batch: r.send_batch,
    batchSize: r.send_batch_size,
    windowEndsAt: r.send_window_ends_at,
  };
}

const SEND_STATE_COLUMNS = Object.keys(SendStateRow.props);

/** Rows per insert of a batch's sends (well under either dialect's limit of bound values). */
const SENDS_PER_INSERT = 100;
/** Sends one delivery job takes, as the email pipeline queues them. */
const SENDS_PER_DELIVERY = 50;

const Recipient = t.type({ recipient_position: DbInteger, recipient_id: t.string, recipient_email: t.string, recipient_due_at: DbNullableDate });
const ReasonCount = t.type({ reason: t.string, total: DbInteger });
const Count = t.type({ total: DbInteger });

/**
 * What each audience contact is, as a send would treat it: the reasons a contact gets nothing
 * (as the batch checks them again: see exclusionAtBatch), else `eligible`.
 */
const REASON = `case
  when s.status = 'unsubscribed' or sup.reason = 'unsubscribe' then 'unsubscribed'
  when s.status = 'bounced' or sup.reason = 'hard_bounce' then 'bounced'
  when sup.reason is not null then 'suppressed'
  when exists (select 1 from opt_ins oi where oi.subscriber_id = s.id and oi.confirmed_at is null) then 'unconfirmed'
  else 'eligible' end`;

/** The send engine's tables: `campaign_recipients`, the send columns of `campaigns`, and the sends of each batch. */
export class KnexCampaignSendRepository implements CampaignSendRepository {
  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
  ) {}

  async dueScheduled(now: Date, limit: number): Promise<Array<{ companyId: string; campaignId: string }>> {
    const rows = await this.knex("campaigns")
      .where({ status: "scheduled" })
      .where("scheduled_at", "<=", toDbDate(now))
      .orderBy("scheduled_at")
      .limit(limit)
      .select("company_id", "id");
    return rows.map((row) => {
      const r = decodeRow(t.type({ company_id: t.string, id: t.string }), row, "campaigns");
      return { companyId: r.company_id, campaignId: r.id };
    });
  }

  async start(input: StartSendInput): Promise<boolean> {
    const { companyId, campaignId } = input;
    const started = await this.knex.transaction(async (trx) => {
      const at = toDbDate(input.now);
      const moved = await trx("campaigns")
        .where({ company_id: companyId, id: campaignId, status: "scheduled" })
        .update({
          status: "sending",
          send_started_at: at,
          send_queued: 0,
          send_processed: 0,
          send_position: 0,
          send_batch: 0,
          send_window_ends_at: toDbDate(input.windowEndsAt),
          updated_at: at,
        });
      if (moved === 0) return false;
      await trx("campaign_recipients").where({ campaign_id: campaignId }).delete();
      let excluded: ExclusionCounts = NO_EXCLUSIONS;
      let eligible = 0;
      if (input.definition && input.anyStatus) {
        for (const { reason, total } of await this.reasonCounts(trx, input.anyStatus)) {
          if (reason === "eligible") eligible = total;
          else excluded = addExclusions(excluded, { [reason]: total });
        }
        await this.freeze(trx, campaignId, input.definition, input.maxRecipients, input.dueAt);
      }
      const [counted] = await trx("campaign_recipients").where({ campaign_id: campaignId }).count({ total: "*" });
      const recipients = decodeRow(Count, counted, "campaign_recipients").total;
      // Contacts sharing an address with another one get no message of their own.
      const duplicate = Math.max(0, Math.min(eligible, input.maxRecipients ?? eligible) - recipients);
      await trx("campaigns")
        .where({ company_id: companyId, id: campaignId })
        .update({
          send_recipients: recipients,
          send_excluded: JSON.stringify(addExclusions(excluded, { duplicate })),
          send_batch_size: input.batchSizeFor(recipients),
        });
      await trx("jobs").insert(newJobRow(input.firstBatch, this.ids.next("job"), input.now));
      return true;
    });
    if (started) await announceJobs(this.knex, [input.firstBatch.type]);
    return started;
  }

  /** Contacts of the audience (any status) by what a send makes of them. */
  private async reasonCounts(trx: Knex.Transaction, anyStatus: SegmentDefinition): Promise<Array<t.TypeOf<typeof ReasonCount>>> {
    const audience = segmentQuery(trx, anyStatus)
      .leftJoin("suppressions as sup", function () {
        this.on("sup.company_id", "=", "s.company_id").andOn("sup.email", "=", "s.email");
      })
      .select(trx.raw(`${REASON} as reason`))
      .as("audience");
    const rows = await trx.from(audience).select("reason").count({ total: "*" }).groupBy("reason");
    return rows.map((row) => decodeRow(ReasonCount, row, "campaign audience"));
  }

  /**
   * The eligible contacts into `campaign_recipients`, in the database, by one INSERT ... SELECT:
   * in order of contact ID, or of due time then ID when each is due in its own timezone.
   */
  private async freeze(
    trx: Knex.Transaction,
    campaignId: string,
    definition: SegmentDefinition,
    maxRecipients: number | null,
    dueAt: ((timezone: string | null) => Date) | null,
  ): Promise<void> {
    const due = dueAt ? (await this.dueByTimezone(trx, definition, dueAt)).expression : trx.raw(isPostgres(trx) ? "cast(null as timestamptz)" : "null");
    const select = campaignRecipientsQuery(trx, definition)
      .select(
        trx.raw("cast(? as varchar(40)) as campaign_id", [campaignId]),
        "s.id as subscriber_id",
        "s.email as email",
        trx.raw("row_number() over (order by ?, s.id) as position", [due]),
        trx.raw("? as due_at", [due]),
      )
      .orderByRaw("?, s.id", [due]);
    if (maxRecipients !== null) select.limit(maxRecipients);
    const { sql, bindings } = select.toSQL();
    // `where true` keeps SQLite from reading ON CONFLICT as part of the SELECT.
    await trx.raw(
      `insert into campaign_recipients (campaign_id, subscriber_id, email, position, due_at) select campaign_id, subscriber_id, email, position, due_at from (${sql}) as frozen where true on conflict do nothing`,
      bindings,
    );
  }

  /**
   * Each contact's due time by its timezone, as one CASE over the audience's few timezones
   * (wrapped: a Raw is a thenable, that an async function would run instead of returning).
   */
  private async dueByTimezone(
    trx: Knex.Transaction,
    definition: SegmentDefinition,
    dueAt: (timezone: string | null) => Date,
  ): Promise<{ readonly expression: Knex.Raw }> {
    const rows = await campaignRecipientsQuery(trx, definition).distinct("s.timezone as timezone");
    const zones = rows.map((row) => decodeRow(t.type({ timezone: t.union([t.string, t.null]) }), row, "subscribers").timezone).filter((zone) => zone !== null);
    const at = (date: Date) => (isPostgres(trx) ? trx.raw("cast(? as timestamptz)", [toDbDate(date)]) : trx.raw("?", [toDbDate(date)]));
    if (zones.length === 0) return { expression: at(dueAt(null)) };
    const cases = zones.map((zone) => trx.raw("when ? then ?", [zone, at(dueAt(zone))]));
    return { expression: trx.raw(`case s.timezone ${zones.map(() => "?").join(" ")} else ? end`, [...cases, at(dueAt(null))]) };
  }

  async state(companyId: string, campaignId: string): Promise<CampaignSendState | null> {
    const row = await this.knex("campaigns").where({ company_id: companyId, id: campaignId }).first(SEND_STATE_COLUMNS);
    return row ? sendStateOf(row) : null;
  }

  async recipientsAfter(companyId: string, campaignId: string, position: number, limit: number): Promise<FrozenRecipient[]> {
    const query = this.knex("campaign_recipients as r")
      .join("campaigns as c", function () {
        this.on("c.id", "=", "r.campaign_id").andOnVal("c.company_id", "=", companyId);
      })
      .leftJoin("subscribers as s", function () {
        this.on("s.id", "=", "r.subscriber_id").andOnVal("s.company_id", "=", companyId);
      })
      .where("r.campaign_id", campaignId)
      .where("r.position", ">", position)
      .orderBy("r.position")
      .limit(limit)
      .select("r.position as recipient_position", "r.subscriber_id as recipient_id", "r.email as recipient_email", "r.due_at as recipient_due_at", "s.*");
    return (await query).map((row: Record<string, unknown>) => {
      const r = decodeRow(Recipient, row, "campaign_recipients");
      return {
        position: r.recipient_position,
        subscriberId: r.recipient_id,
        email: r.recipient_email,
        dueAt: r.recipient_due_at,
        contact: row.id === null || row.id === undefined ? null : toSubscriber(row),
      };
    });
  }

  async recordBatch(input: RecordBatchInput): Promise<boolean> {
    const { companyId, campaignId } = input;
    const types = new Set<string>(input.next ? [input.next.type] : []);
    const recorded = await this.knex.transaction(async (trx) => {
      const current = trx("campaigns").where({
        company_id: companyId,
        id: campaignId,
        status: "sending",
        send_batch: input.batch,
        send_position: input.from,
      });
      if (isPostgres(trx)) current.forUpdate();
      const row = await current.first(SEND_STATE_COLUMNS);
      const state = row ? sendStateOf(row) : null;
      if (!state) return false;
      // A contact that has its send already (the unique index) is not sent to again.
      const inserted: string[] = [];
      for (const chunk of chunksOf(input.sends, SENDS_PER_INSERT)) inserted.push(...(await insertSends(trx, chunk, { ignoreConflicts: true })));
      const jobs: ReturnType<typeof newJobRow>[] = chunksOf(inserted, SENDS_PER_DELIVERY).map((run) => {
        const request: JobRequest = input.delivery(companyId, run);
        types.add(request.type);
        return newJobRow(request, this.ids.next("job"), input.now);
      });
      if (input.next) jobs.push(newJobRow(input.next, this.ids.next("job"), input.now));
      // A job already queued under the same singleton key does the same work.
      if (jobs.length > 0) await trx("jobs").insert(jobs).onConflict().ignore();
      const skipped = EXCLUSION_REASONS.reduce((sum, reason) => sum + (input.excluded[reason] ?? 0), 0);
      await trx("campaigns")
        .where({ company_id: companyId, id: campaignId })
        .update({
          send_position: input.position,
          send_batch: input.next ? input.batch + 1 : input.batch,
          send_queued: state.queued + inserted.length,
          send_processed: state.processed + input.sends.length + skipped,
          send_excluded: JSON.stringify(addExclusions(state.excluded, input.excluded)),
        });
      return true;
    });
    if (recorded) await announceJobs(this.knex, [...types]);
    return recorded;
  }

  async resume(input: {
    readonly companyId: string;
    readonly campaignId: string;
    readonly spread: { readonly hours: number; readonly windowEndsAt: Date; readonly batchSize: number } | null;
    readonly job: (batch: number) => JobRequest;
    readonly now: Date;
  }): Promise<boolean> {
    // The type of the job queued, or null when the campaign was not paused.
    const queued = await this.knex.transaction(async (trx): Promise<string | null> => {
      const current = trx("campaigns").where({ company_id: input.companyId, id: input.campaignId, status: "paused" });
      if (isPostgres(trx)) current.forUpdate();
      const row = await current.first("send_batch");
      if (!row) return null;
      const { send_batch: batch } = decodeRow(t.type({ send_batch: DbInteger }), row, "campaigns");
      await trx("campaigns")
        .where({ company_id: input.companyId, id: input.campaignId })
        .update({
          status: "sending",
          pause_reason: null,
          updated_at: toDbDate(input.now),
          ...(input.spread
            ? { spread_over_hours: input.spread.hours, send_window_ends_at: toDbDate(input.spread.windowEndsAt), send_batch_size: input.spread.batchSize }
            : {}),
        });
      const job = input.job(batch);
      await trx("jobs").insert(newJobRow(job, this.ids.next("job"), input.now));
      return job.type;
    });
    if (queued !== null) await announceJobs(this.knex, [queued]);
    return queued !== null;
  }

  async reserveSendSlot(scope: string, messages: number, perMinute: number, now: Date): Promise<Date> {
    return this.knex.transaction(async (trx) => {
      const current = trx("campaign_send_pacing").where({ scope });
      if (isPostgres(trx)) current.forUpdate();
      const row = await current.first("free_from");
      const freeFrom = row ? decodeRow(t.type({ free_from: DbNullableDate }), row, "campaign_send_pacing").free_from : null;
      const next = afterThrottle({ now, freeFrom, messages, perMinute });
      await trx("campaign_send_pacing")
        .insert({ scope, free_from: toDbDate(next) })
        .onConflict("scope")
        .merge(["free_from"]);
      return next;
    });
  }

  async pendingSends(companyId: string, campaignId: string): Promise<number> {
    const [row] = await this.knex("email_sends")
      .where({ company_id: companyId, campaign_id: campaignId, status: "pending", is_test: false })
      .count({ total: "*" });
    return decodeRow(Count, row, "email_sends").total;
  }
}
