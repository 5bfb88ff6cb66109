import * as t from "io-ts";
import type { Knex } from "knex";
import type { FunnelCounts } from "../../../core/metrics/model.js";
import type { MetricsWindow } from "../../../core/metrics/period.js";
import type { FailedEnrollment, NodeEnrollmentCount, SequenceConversion, SequenceMetricsQueries } from "../../../core/metrics/sequence-metrics-ports.js";
import { nullable } from "../../../core/shared/codecs.js";
import { DbDate, DbInteger, decodeRow, toDbDate } from "../row-codecs.js";
import { FUNNEL_COLUMNS, toFunnelCounts } from "./metrics-queries.js";

/** A step's recorded detail: JSON text on SQLite, a parsed object on Postgres. */
function reasonOf(detail: unknown): string {
  const parsed: unknown = typeof detail === "string" ? JSON.parse(detail) : detail;
  const reason = parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>).reason : undefined;
  return typeof reason === "string" ? reason : "unknown";
}

/** Sequence metrics over `email_sends` (by automation), `sequence_enrollments` and their steps. */
export class KnexSequenceMetricsQueries implements SequenceMetricsQueries {
  constructor(private readonly knex: Knex) {}

  async funnelsByNode(companyId: string, sequenceId: string, window: MetricsWindow): Promise<ReadonlyMap<string, FunnelCounts>> {
    const query = this.knex("email_sends as s")
      .where({ "s.company_id": companyId, "s.automation_id": sequenceId, "s.email_type": "sequence", "s.is_test": false })
      .whereNotNull("s.automation_node_id");
    if (window.start) query.where("s.sent_at", ">=", toDbDate(window.start));
    if (window.end) query.where("s.sent_at", "<=", toDbDate(window.end));
    if (!window.start && !window.end) query.whereNotNull("s.sent_at");
    const rows: unknown[] = await query.groupBy("s.automation_node_id").select("s.automation_node_id", this.knex.raw(FUNNEL_COLUMNS));
    return new Map(rows.map((row) => [decodeRow(t.type({ automation_node_id: t.string }), row, "email_sends").automation_node_id, toFunnelCounts(row)]));
  }

  private enrollments(companyId: string, sequenceId: string) {
    return this.knex("sequence_enrollments as e").where({ "e.company_id": companyId, "e.sequence_id": sequenceId });
  }

  async runningByNode(companyId: string, sequenceId: string): Promise<NodeEnrollmentCount[]> {
    const rows: unknown[] = await this.enrollments(companyId, sequenceId)
      .whereIn("e.status", ["active", "waiting"])
      .groupBy("e.current_node_id", "e.status")
      .select("e.current_node_id", "e.status", this.knex.raw("count(*) as n"));
    return rows.map((row) => {
      const r = decodeRow(t.type({ current_node_id: t.string, status: t.keyof({ active: null, waiting: null }), n: DbInteger }), row, "sequence_enrollments");
      return { nodeId: r.current_node_id, status: r.status, count: r.n };
    });
  }

  async failedCounts(companyId: string, sequenceId: string): Promise<ReadonlyMap<string, number>> {
    const rows: unknown[] = await this.enrollments(companyId, sequenceId)
      .where("e.status", "failed")
      .groupBy("e.current_node_id")
      .select("e.current_node_id", this.knex.raw("count(*) as n"));
    return new Map(
      rows.map((row) => {
        const r = decodeRow(t.type({ current_node_id: t.string, n: DbInteger }), row, "sequence_enrollments");
        return [r.current_node_id, r.n];
      }),
    );
  }

  async latestFailed(companyId: string, sequenceId: string, nodeId: string, limit: number): Promise<FailedEnrollment[]> {
    const rows: unknown[] = await this.enrollments(companyId, sequenceId)
      .leftJoin("subscribers as s", "s.id", "e.subscriber_id")
      .where({ "e.status": "failed", "e.current_node_id": nodeId })
      .orderBy([
        { column: "e.finished_at", order: "desc" },
        { column: "e.id", order: "desc" },
      ])
      .limit(limit)
      .select("e.subscriber_id", "s.email", "e.finished_at", "e.updated_at", "e.failed_reason");
    return rows.map((row) => {
      const r = decodeRow(
        t.type({
          subscriber_id: t.string,
          email: nullable(t.string),
          finished_at: t.union([DbDate, t.null]),
          updated_at: DbDate,
          failed_reason: nullable(t.string),
        }),
        row,
        "sequence_enrollments",
      );
      return { nodeId, subscriberId: r.subscriber_id, email: r.email, failedAt: r.finished_at ?? r.updated_at, failedReason: r.failed_reason };
    });
  }

  async conversions(companyId: string, sequenceId: string, window: MetricsWindow): Promise<SequenceConversion[]> {
    // The step credited: the sequence's last real send to the contact at or before the conversion.
    const lastStep = this.knex("email_sends as s")
      .select("s.automation_node_id")
      .where("s.company_id", companyId)
      .whereRaw("s.subscriber_id = c.subscriber_id")
      .where({ "s.automation_id": sequenceId, "s.email_type": "sequence", "s.is_test": false })
      .whereNotNull("s.automation_node_id")
      .whereRaw("s.sent_at <= c.converted_at")
      .orderBy("s.sent_at", "desc")
      .limit(1);
    const query = this.knex("sequence_goal_conversions as c")
      .join("sequence_goals as g", "g.id", "c.goal_id")
      .where({ "c.company_id": companyId, "g.company_id": companyId, "g.sequence_id": sequenceId });
    if (window.start) query.where("c.converted_at", ">=", toDbDate(window.start));
    if (window.end) query.where("c.converted_at", "<=", toDbDate(window.end));
    const rows: unknown[] = await query.select("c.value", "g.event_property_name", lastStep.as("node_id"));
    return rows.map((row) => {
      const r = decodeRow(
        t.type({ value: nullable(t.string), event_property_name: nullable(t.string), node_id: nullable(t.string) }),
        row,
        "sequence_goal_conversions",
      );
      return { nodeId: r.node_id, propertyName: r.event_property_name, value: r.value };
    });
  }

  async skippedSteps(companyId: string, sequenceId: string): Promise<ReadonlyArray<{ readonly reason: string; readonly count: number }>> {
    const rows: Array<{ detail: unknown; n: unknown }> = await this.knex("sequence_enrollment_steps as st")
      .join("sequence_enrollments as e", "e.id", "st.enrollment_id")
      .where({ "st.company_id": companyId, "e.company_id": companyId, "e.sequence_id": sequenceId, "st.outcome": "skipped" })
      .groupBy("st.detail")
      .select("st.detail", this.knex.raw("count(*) as n"));
    return rows.map((row) => ({ reason: reasonOf(row.detail), count: decodeRow(DbInteger, row.n, "sequence_enrollment_steps") }));
  }
}
