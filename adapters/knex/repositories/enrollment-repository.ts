import * as t from "io-ts";
import type { Knex } from "knex";
import { sequenceWebhookEvent } from "../../../core/webhooks/event-data.js";
import type { KnexWebhookPublisher } from "../knex-webhook-publisher.js";
import { ENROLLMENT_STATUSES, RUNNING_STATUSES, type Enrollment, type EnrollmentState, type StepRecord } from "../../../core/sequences/enrollment.js";
import type {
  EnrollmentFilter,
  EnrollmentRepository,
  EnrollmentWithContact,
  MovedEnrollment,
  MoveChange,
  Relocation,
} from "../../../core/sequences/enrollment-ports.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { SUBSCRIBER_STATUSES } from "../../../core/subscribers/model.js";
import { isPostgres } from "../connection.js";
import { GroupCommit } from "../group-commit.js";
import { DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { relocateEnrollments } from "./enrollment-relocation.js";
import { enrollmentsInIdOrder } from "./enrollments-in-id-order.js";

const NullableText = t.union([t.string, t.null]);

const EnrollmentRow = t.type({
  id: t.string,
  company_id: t.string,
  sequence_id: t.string,
  subscriber_id: t.string,
  status: oneOf(ENROLLMENT_STATUSES),
  current_node_id: t.string,
  entry_key: NullableText,
  step_count: DbInteger,
  due_at: DbNullableDate,
  wait_until: DbNullableDate,
  context: dbJson(t.UnknownRecord),
  failed_reason: NullableText,
  source: oneOf(["trigger", "api"] as const),
  started_at: DbDate,
  updated_at: DbDate,
  finished_at: DbNullableDate,
});
/** Migration 0039: absent from rows read before it ran (a sweep racing the migration) and null when never moved. */
const MoveColumns = t.partial({
  moved_from_node_id: NullableText,
  moved_at: DbNullableDate,
  move_reason: NullableText,
  moved_by: t.union([oneOf(["api", "graph_edit"] as const), t.null]),
});
const ContactColumns = t.type({
  email: NullableText,
  first_name: NullableText,
  last_name: NullableText,
  subscriber_status: t.union([oneOf(SUBSCRIBER_STATUSES), t.null]),
});
const StepRow = t.type({
  step_number: DbInteger,
  node_id: t.string,
  node_type: t.string,
  outcome: t.string,
  detail: t.union([t.null, dbJson(t.union([t.UnknownRecord, t.null]))]),
  email_send_id: NullableText,
  at: DbDate,
});

export function toEnrollment(row: unknown): Enrollment {
  const r = decodeRow(EnrollmentRow, row, "sequence_enrollments");
  const m = decodeRow(MoveColumns, row, "sequence_enrollments");
  return {
    id: r.id,
    companyId: r.company_id,
    sequenceId: r.sequence_id,
    subscriberId: r.subscriber_id,
    status: r.status,
    currentNodeId: r.current_node_id,
    entryKey: r.entry_key,
    stepCount: r.step_count,
    dueAt: r.due_at,
    waitUntil: r.wait_until,
    context: r.context,
    failedReason: r.failed_reason,
    source: r.source,
    startedAt: r.started_at,
    updatedAt: r.updated_at,
    finishedAt: r.finished_at,
    move:
      m.moved_from_node_id && m.moved_at && m.moved_by
        ? { fromNodeId: m.moved_from_node_id, at: m.moved_at, reason: m.move_reason ?? null, by: m.moved_by }
        : null,
  };
}

function toEnrollmentWithContact(row: unknown): EnrollmentWithContact {
  const contact = decodeRow(ContactColumns, row, "sequence_enrollments");
  return {
    ...toEnrollment(row),
    email: contact.email,
    firstName: contact.first_name,
    lastName: contact.last_name,
    subscriberStatus: contact.subscriber_status,
  };
}

const stateColumns = (state: EnrollmentState, at: Date) => ({
  status: state.status,
  current_node_id: state.currentNodeId,
  due_at: toDbDate(state.dueAt),
  wait_until: toDbDate(state.waitUntil),
  entry_key: state.entryKey,
  failed_reason: state.failedReason,
  finished_at: toDbDate(state.finishedAt),
  updated_at: toDbDate(at),
  ...(state.context ? { context: JSON.stringify(state.context) } : {}),
});

const ORDER: Record<EnrollmentFilter["sort"], [string, "asc" | "desc"]> = {
  enrolled_at_desc: ["e.started_at", "desc"],
  enrolled_at_asc: ["e.started_at", "asc"],
  wait_until_asc: ["e.wait_until", "asc"],
  wait_until_desc: ["e.wait_until", "desc"],
};

/** One step recorded: the enrollment as read, the state it moves to, the record of the step. */
interface Advance {
  readonly enrollment: Enrollment;
  readonly next: EnrollmentState;
  readonly step: StepRecord;
}

/** Steps one transaction records at most. */
const MAX_ADVANCES = 100;

/** `sequence_enrollments` and `sequence_enrollment_steps` (migration 0028). */
export class KnexEnrollmentRepository implements EnrollmentRepository {
  /** Steps of enrollments moved at the same time are recorded in one transaction (a failed group is written item by item). */
  private readonly advances = new GroupCommit<Advance, boolean>((items) => this.writeAdvances(items), 1, MAX_ADVANCES);

  constructor(
    private readonly knex: Knex,
    /** Publishes sequence.finished and sequence.failed to the company's webhooks, in the transaction that ends the run. */
    private readonly webhooks?: KnexWebhookPublisher,
  ) {}

  /** `<context> in (keys)` for the matching_field value an enrollment entered for, kept in its context document. */
  private enrollmentKeyIn(context: "e.context" | "context", keys: readonly string[]): [string, string[]] {
    const value = isPostgres(this.knex) ? `${context} ->> 'enrollmentKey'` : `json_extract(${context}, '$.enrollmentKey')`;
    return [`${value} in (${keys.map(() => "?").join(", ")})`, [...keys]];
  }

  async insert(enrollment: Enrollment): Promise<boolean> {
    const inserted = await this.knex("sequence_enrollments")
      .insert({
        id: enrollment.id,
        company_id: enrollment.companyId,
        sequence_id: enrollment.sequenceId,
        subscriber_id: enrollment.subscriberId,
        step_count: enrollment.stepCount,
        context: JSON.stringify(enrollment.context),
        source: enrollment.source,
        started_at: toDbDate(enrollment.startedAt),
        ...stateColumns(enrollment, enrollment.updatedAt),
      })
      .onConflict(["sequence_id", "entry_key"])
      .ignore()
      .returning("id");
    return inserted.length > 0;
  }

  private withContact(companyId: string, sequenceId: string) {
    return this.knex("sequence_enrollments as e")
      .leftJoin("subscribers as s", "s.id", "e.subscriber_id")
      .where({ "e.company_id": companyId, "e.sequence_id": sequenceId });
  }

  private readonly contactSelection = ["e.*", "s.email", "s.first_name", "s.last_name", "s.status as subscriber_status"];

  async find(companyId: string, sequenceId: string, enrollmentId: string): Promise<EnrollmentWithContact | null> {
    const row = await this.withContact(companyId, sequenceId).andWhere("e.id", enrollmentId).first(this.contactSelection);
    return row ? toEnrollmentWithContact(row) : null;
  }

  async waitingPage(
    companyId: string,
    sequenceId: string,
    filter: { readonly nodeIds: readonly string[] | null; readonly subscriberIds: readonly string[] | null },
    afterId: string | null,
    limit: number,
  ): Promise<EnrollmentWithContact[]> {
    const query = this.withContact(companyId, sequenceId).andWhere("e.status", "waiting");
    if (filter.nodeIds) query.whereIn("e.current_node_id", filter.nodeIds);
    if (filter.subscriberIds) query.whereIn("e.subscriber_id", filter.subscriberIds);
    if (afterId !== null) query.andWhere("e.id", ">", afterId);
    const rows = await query.orderBy("e.id").limit(limit).select(this.contactSelection);
    return rows.map(toEnrollmentWithContact);
  }

  async reschedule(companyId: string, enrollmentId: string, from: Date, to: Date, now: Date): Promise<boolean> {
    const moved = await this.knex("sequence_enrollments")
      .where({ company_id: companyId, id: enrollmentId, status: "waiting", due_at: toDbDate(from) })
      .update({ due_at: toDbDate(to), wait_until: toDbDate(to), updated_at: toDbDate(now) });
    return moved === 1;
  }

  async ofContact(companyId: string, subscriberId: string, limit: number): Promise<Enrollment[]> {
    const rows = await this.knex("sequence_enrollments")
      .where({ company_id: companyId, subscriber_id: subscriberId })
      .orderBy([
        { column: "started_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .limit(limit);
    return rows.map(toEnrollment);
  }

  async list(companyId: string, sequenceId: string, filter: EnrollmentFilter): Promise<{ enrollments: EnrollmentWithContact[]; total: number }> {
    const base = this.withContact(companyId, sequenceId).whereIn("e.status", filter.statuses);
    if (filter.subscriberIds) base.whereIn("e.subscriber_id", filter.subscriberIds);
    if (filter.email) base.andWhere("s.email", filter.email.trim().toLowerCase());
    if (filter.currentNodeId) base.andWhere("e.current_node_id", filter.currentNodeId);
    if (filter.enrollmentKeys) base.whereRaw(...this.enrollmentKeyIn("e.context", filter.enrollmentKeys));
    const [column, direction] = ORDER[filter.sort];
    const [rows, count] = await Promise.all([
      base
        .clone()
        .select(this.contactSelection)
        .orderByRaw(`${column} is null, ${column} ${direction}`)
        .orderBy("e.id", direction)
        .limit(filter.limit)
        .offset(filter.offset),
      base.clone().count({ n: "*" }).first(),
    ]);
    return { enrollments: rows.map(toEnrollmentWithContact), total: Number(count?.n ?? 0) };
  }

  private dueQuery(now: Date) {
    return this.knex("sequence_enrollments as e")
      .join("sequences as q", "q.id", "e.sequence_id")
      .where("e.due_at", "<=", toDbDate(now))
      .whereIn("e.status", RUNNING_STATUSES)
      .andWhere("q.status", "active");
  }

  async due(companyId: string, now: Date, limit: number): Promise<Enrollment[]> {
    const rows = await this.dueQuery(now).andWhere("e.company_id", companyId).select("e.*").orderBy("e.due_at").orderBy("e.id").limit(limit);
    return rows.map(toEnrollment);
  }

  async dueNew(companyId: string, now: Date, limit: number): Promise<Enrollment[]> {
    // A literal 0, not a parameter: SQLite uses the partial index sequence_enrollments_new only for the same term.
    const rows = await this.dueQuery(now)
      .andWhere("e.company_id", companyId)
      .whereRaw("e.step_count = 0")
      .select("e.*")
      .orderBy("e.due_at")
      .orderBy("e.id")
      .limit(limit);
    return rows.map(toEnrollment);
  }

  async companiesWithDue(now: Date, limit: number): Promise<string[]> {
    const rows: Array<{ company_id: string }> = await this.dueQuery(now).distinct("e.company_id").limit(limit);
    return rows.map((row) => row.company_id);
  }

  async advance(enrollment: Enrollment, next: EnrollmentState, step: StepRecord): Promise<boolean> {
    const [advanced] = await this.advances.submit([{ enrollment, next, step }]);
    return advanced ?? false;
  }

  /** Steps recorded together (the engine moves several enrollments at once) share one transaction. */
  private async writeAdvances(items: readonly Advance[]): Promise<boolean[]> {
    let published = 0;
    const advanced = await this.knex.transaction(async (trx) => {
      published = 0;
      const moved: boolean[] = new Array<boolean>(items.length).fill(false);
      // Rows are written in ID order, as bulk updates lock them (enrollmentsInIdOrder): no deadlock between the two on Postgres.
      const order = items.map((_, index) => index).sort((a, b) => (items[a]!.enrollment.id < items[b]!.enrollment.id ? -1 : 1));
      for (const index of order) {
        const done = await this.advanceIn(trx, items[index]!);
        moved[index] = done.moved;
        published += done.published;
      }
      return moved;
    });
    await this.webhooks?.announce(published);
    return advanced;
  }

  private async advanceIn(trx: Knex.Transaction, { enrollment, next, step }: Advance): Promise<{ moved: boolean; published: number }> {
    const moved = await trx("sequence_enrollments")
      .where({ id: enrollment.id, company_id: enrollment.companyId, step_count: enrollment.stepCount })
      .update({ ...stateColumns(next, step.at), step_count: enrollment.stepCount + 1 });
    if (moved !== 1) return { moved: false, published: 0 };
    await trx("sequence_enrollment_steps").insert({
      enrollment_id: enrollment.id,
      step_number: enrollment.stepCount + 1,
      company_id: enrollment.companyId,
      node_id: step.nodeId,
      node_type: step.nodeType,
      outcome: step.outcome,
      detail: step.detail === null ? null : JSON.stringify(step.detail),
      email_send_id: step.emailSendId,
      at: toDbDate(step.at),
    });
    if (!this.webhooks || (next.status !== "completed" && next.status !== "failed")) return { moved: true, published: 0 };
    const type = next.status === "completed" ? "sequence.finished" : "sequence.failed";
    const published = await this.webhooks.publishIn(trx, enrollment.companyId, async (wanted) => {
      if (!wanted.has(type)) return [];
      const contact = await trx("subscribers").where({ company_id: enrollment.companyId, id: enrollment.subscriberId }).first("email", "external_id");
      // The step that ended the run names the event: the same ID whenever it is published.
      return [
        sequenceWebhookEvent(`evt_${enrollment.id}_${enrollment.stepCount + 1}`, type, next.finishedAt ?? step.at, {
          sequenceId: enrollment.sequenceId,
          enrollmentId: enrollment.id,
          subscriberId: enrollment.subscriberId,
          email: contact?.email ?? null,
          externalId: contact?.external_id ?? null,
          failedReason: next.failedReason,
          finishedAt: next.finishedAt,
        }),
      ];
    });
    return { moved: true, published };
  }

  async steps(companyId: string, enrollmentId: string): Promise<Array<StepRecord & { readonly stepNumber: number }>> {
    const rows = await this.knex("sequence_enrollment_steps").where({ company_id: companyId, enrollment_id: enrollmentId }).orderBy("step_number");
    return rows.map((row) => {
      const r = decodeRow(StepRow, row, "sequence_enrollment_steps");
      return {
        stepNumber: r.step_number,
        nodeId: r.node_id,
        nodeType: r.node_type,
        outcome: r.outcome,
        detail: r.detail,
        emailSendId: r.email_send_id,
        at: r.at,
      };
    });
  }

  async isListMember(companyId: string, listId: string, subscriberId: string): Promise<boolean> {
    const row = await this.knex("list_memberships")
      .where({ company_id: companyId, list_id: listId, subscriber_id: subscriberId })
      .whereNull("unsubscribed_at")
      .first("list_id");
    return row !== undefined;
  }

  async move(companyId: string, sequenceId: string, relocation: Relocation, change: MoveChange, enrollmentIds?: readonly string[]): Promise<MovedEnrollment[]> {
    return relocateEnrollments(this.knex, companyId, sequenceId, relocation, change, enrollmentIds);
  }

  async movedSince(companyId: string, sequenceId: string, since: Date): Promise<number> {
    const row = await this.knex("sequence_enrollments")
      .where({ company_id: companyId, sequence_id: sequenceId, moved_by: "api" })
      .andWhere("moved_at", ">=", toDbDate(since))
      .count({ n: "*" })
      .first();
    return Number(row?.n ?? 0);
  }

  async cancelRunning(
    companyId: string,
    sequenceId: string,
    subscriberIds: readonly string[] | null,
    change: { readonly reason: string; readonly keepEntryKey: boolean; readonly at: Date; readonly enrollmentKeys?: readonly string[] },
  ): Promise<number> {
    const running = this.knex("sequence_enrollments").where({ company_id: companyId, sequence_id: sequenceId }).whereIn("status", RUNNING_STATUSES);
    if (subscriberIds) running.whereIn("subscriber_id", subscriberIds);
    if (change.enrollmentKeys) running.whereRaw(...this.enrollmentKeyIn("context", change.enrollmentKeys));
    return enrollmentsInIdOrder(this.knex, running).update({
      status: "cancelled",
      due_at: null,
      wait_until: null,
      failed_reason: change.reason,
      finished_at: toDbDate(change.at),
      updated_at: toDbDate(change.at),
      step_count: this.knex.raw("step_count + 1"),
      ...(change.keepEntryKey ? {} : { entry_key: null }),
    });
  }
}
