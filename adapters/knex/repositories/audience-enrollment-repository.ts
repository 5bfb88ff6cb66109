import * as t from "io-ts";
import type { Knex } from "knex";
import { AUDIENCE_ENROLLMENT_STATUSES, type AudienceEnrollment, type AudienceEnrollmentStatus } from "../../../core/sequences/audience-enrollment.js";
import type { AudienceEnrollmentRepository, AudienceSelection } from "../../../core/sequences/audience-enrollment-ports.js";
import { nullable, oneOf } from "../../../core/shared/codecs.js";
import { segmentQuery } from "../knex-segment-evaluator.js";
import { DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

const StoredAudience = t.union([
  t.type({ type: t.literal("all") }),
  t.type({ type: t.literal("list"), listId: t.string }),
  t.type({ type: t.literal("segment"), segmentId: t.string }),
  t.type({ type: t.literal("tag"), tag: t.string }),
]);

const RunRow = t.type({
  id: t.string,
  company_id: t.string,
  sequence_id: t.string,
  status: oneOf(AUDIENCE_ENROLLMENT_STATUSES),
  audience: dbJson(StoredAudience),
  target_node_id: nullable(t.string),
  estimated_count: DbInteger,
  processed_count: DbInteger,
  enrolled_count: DbInteger,
  skipped_count: DbInteger,
  source: t.literal("api"),
  error: nullable(t.string),
  cursor: nullable(t.string),
  created_at: DbDate,
  updated_at: DbDate,
  started_at: DbNullableDate,
  completed_at: DbNullableDate,
  cancel_requested_at: DbNullableDate,
});

function toRun(row: unknown): AudienceEnrollment {
  const r = decodeRow(RunRow, row, "sequence_audience_enrollments");
  return {
    id: r.id,
    companyId: r.company_id,
    sequenceId: r.sequence_id,
    status: r.status,
    audience: r.audience,
    targetNodeId: r.target_node_id,
    estimatedCount: r.estimated_count,
    processedCount: r.processed_count,
    enrolledCount: r.enrolled_count,
    skippedCount: r.skipped_count,
    source: r.source,
    error: r.error,
    cursor: r.cursor,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    completedAt: r.completed_at,
    cancelRequestedAt: r.cancel_requested_at,
  };
}

/** `sequence_audience_enrollments` (migration 0031), and the audiences read from the contact tables. */
export class KnexAudienceEnrollmentRepository implements AudienceEnrollmentRepository {
  constructor(private readonly knex: Knex) {}

  async insert(run: AudienceEnrollment): Promise<void> {
    await this.knex("sequence_audience_enrollments").insert({
      id: run.id,
      company_id: run.companyId,
      sequence_id: run.sequenceId,
      audience: JSON.stringify(run.audience),
      target_node_id: run.targetNodeId,
      estimated_count: run.estimatedCount,
      source: run.source,
      created_at: toDbDate(run.createdAt),
      ...this.progress(run),
    });
  }

  private progress(run: AudienceEnrollment) {
    return {
      status: run.status,
      processed_count: run.processedCount,
      enrolled_count: run.enrolledCount,
      skipped_count: run.skippedCount,
      error: run.error,
      cursor: run.cursor,
      updated_at: toDbDate(run.updatedAt),
      started_at: toDbDate(run.startedAt),
      completed_at: toDbDate(run.completedAt),
    };
  }

  async find(companyId: string, sequenceId: string, runId: string): Promise<AudienceEnrollment | null> {
    const row = await this.knex("sequence_audience_enrollments").where({ company_id: companyId, sequence_id: sequenceId, id: runId }).first();
    return row ? toRun(row) : null;
  }

  async list(
    companyId: string,
    sequenceId: string,
    page: { readonly limit: number; readonly before: { readonly createdAt: Date; readonly id: string } | null },
  ): Promise<AudienceEnrollment[]> {
    const query = this.knex("sequence_audience_enrollments").where({ company_id: companyId, sequence_id: sequenceId });
    if (page.before) {
      const at = toDbDate(page.before.createdAt);
      const id = page.before.id;
      query.where((q) => q.where("created_at", "<", at).orWhere((same) => same.where("created_at", at).where("id", "<", id)));
    }
    const rows = await query
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ])
      .limit(page.limit);
    return rows.map(toRun);
  }

  async save(run: AudienceEnrollment, expected: { readonly status: AudienceEnrollmentStatus; readonly processedCount: number }): Promise<boolean> {
    const changed = await this.knex("sequence_audience_enrollments")
      .where({ company_id: run.companyId, id: run.id, status: expected.status, processed_count: expected.processedCount })
      // A cancel request, once made, is never erased by a batch that read the run before it.
      .update({ ...this.progress(run), cancel_requested_at: this.knex.raw("coalesce(cancel_requested_at, ?)", [toDbDate(run.cancelRequestedAt)]) });
    return changed > 0;
  }

  /** The audience's contacts as `s`. */
  private audience(selection: AudienceSelection): Knex.QueryBuilder {
    const { companyId } = selection;
    switch (selection.type) {
      case "segment":
        return segmentQuery(this.knex, selection.definition);
      case "all":
        return this.knex.queryBuilder().from("subscribers as s").where("s.company_id", companyId);
      case "list":
        return this.knex
          .queryBuilder()
          .from("subscribers as s")
          .where("s.company_id", companyId)
          .whereIn(
            "s.id",
            this.knex("list_memberships").where({ company_id: companyId, list_id: selection.listId }).whereNull("unsubscribed_at").select("subscriber_id"),
          );
      case "tag":
        return this.knex
          .queryBuilder()
          .from("subscribers as s")
          .where("s.company_id", companyId)
          .whereIn(
            "s.id",
            this.knex("subscriber_tags as st")
              .join("tags as tg", "tg.id", "st.tag_id")
              .where({ "st.company_id": companyId, "tg.company_id": companyId, "tg.name": selection.tagName })
              .select("st.subscriber_id"),
          );
    }
  }

  async count(selection: AudienceSelection): Promise<number> {
    const row = await this.audience(selection).count({ n: "*" }).first();
    return decodeRow(t.type({ n: DbInteger }), row, "subscribers").n;
  }

  async page(selection: AudienceSelection, afterId: string | null, limit: number): Promise<string[]> {
    const query = this.audience(selection);
    if (afterId !== null) query.where("s.id", ">", afterId);
    const rows: Array<{ id: string }> = await query.orderBy("s.id").limit(limit).select("s.id");
    return rows.map((row) => row.id);
  }
}
