import * as t from "io-ts";
import type { Knex } from "knex";
import { TEST_RUN_STATUSES, type TestRun, type TestRunStep } from "../../../core/sequences/test-run.js";
import type { TestRunRepository } from "../../../core/sequences/test-run-ports.js";
import { nullable, oneOf } from "../../../core/shared/codecs.js";
import { DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

const RunRow = t.type({
  id: t.string,
  company_id: t.string,
  sequence_id: t.string,
  subscriber_id: nullable(t.string),
  initiated_by_user_id: nullable(t.string),
  status: oneOf(TEST_RUN_STATUSES),
  recipient_emails: dbJson(t.array(t.string)),
  speed_multiplier: DbInteger,
  custom_variables: dbJson(t.UnknownRecord),
  steps: dbJson(t.array(t.UnknownRecord)),
  current_node_id: t.string,
  resume_at: DbNullableDate,
  error_message: nullable(t.string),
  created_at: DbDate,
  updated_at: DbDate,
  started_at: DbNullableDate,
  finished_at: DbNullableDate,
});

function toRun(row: unknown): TestRun {
  const r = decodeRow(RunRow, row, "sequence_test_runs");
  return {
    id: r.id,
    companyId: r.company_id,
    sequenceId: r.sequence_id,
    subscriberId: r.subscriber_id,
    initiatedByUserId: r.initiated_by_user_id,
    status: r.status,
    recipientEmails: r.recipient_emails,
    speedMultiplier: r.speed_multiplier,
    customVariables: r.custom_variables,
    steps: r.steps as unknown as TestRunStep[],
    currentNodeId: r.current_node_id,
    resumeAt: r.resume_at,
    errorMessage: r.error_message,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

const progress = (run: TestRun) => ({
  status: run.status,
  steps: JSON.stringify(run.steps),
  step_count: run.steps.length,
  current_node_id: run.currentNodeId,
  resume_at: toDbDate(run.resumeAt),
  error_message: run.errorMessage,
  updated_at: toDbDate(run.updatedAt),
  started_at: toDbDate(run.startedAt),
  finished_at: toDbDate(run.finishedAt),
});

/** `sequence_test_runs` (migration 0031). */
export class KnexTestRunRepository implements TestRunRepository {
  constructor(private readonly knex: Knex) {}

  async insert(run: TestRun): Promise<void> {
    await this.knex("sequence_test_runs").insert({
      id: run.id,
      company_id: run.companyId,
      sequence_id: run.sequenceId,
      subscriber_id: run.subscriberId,
      initiated_by_user_id: run.initiatedByUserId,
      recipient_emails: JSON.stringify(run.recipientEmails),
      speed_multiplier: run.speedMultiplier,
      custom_variables: JSON.stringify(run.customVariables),
      created_at: toDbDate(run.createdAt),
      ...progress(run),
    });
  }

  async find(companyId: string, sequenceId: string, runId: string): Promise<TestRun | null> {
    const row = await this.knex("sequence_test_runs").where({ company_id: companyId, sequence_id: sequenceId, id: runId }).first();
    return row ? toRun(row) : null;
  }

  async save(run: TestRun, expectedSteps: number): Promise<boolean> {
    const changed = await this.knex("sequence_test_runs")
      .where({ company_id: run.companyId, id: run.id, step_count: expectedSteps })
      .whereIn("status", ["queued", "running"])
      .update(progress(run));
    return changed > 0;
  }
}
