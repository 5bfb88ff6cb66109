import * as t from "io-ts";
import type { Knex } from "knex";
import { nullable, oneOf } from "../../../core/shared/codecs.js";
import { DUPLICATE_STRATEGIES, SUBSCRIBER_STATUSES } from "../../../core/subscribers/model.js";
import { MIGRATION_PROVIDERS, RESOURCE_TYPES, RUN_STATUSES, type MigrationRun, type RunStatus } from "../../../core/migrations/model.js";
import type { DraftClaim, MigrationRunRepository } from "../../../core/migrations/ports.js";
import { DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

/** A timestamp inside a JSON document: ISO text. */
const IsoText = new t.Type<Date, string, unknown>(
  "IsoText",
  (u): u is Date => u instanceof Date,
  (u, c) => (typeof u === "string" && !Number.isNaN(new Date(u).getTime()) ? t.success(new Date(u)) : t.failure(u, c, "is not an ISO time")),
  (d) => d.toISOString(),
);

const Resource = t.type({ id: t.string, type: oneOf(RESOURCE_TYPES), count: t.number, name: t.string });
const Discovery = t.type({ provider: oneOf(MIGRATION_PROVIDERS), resources: t.array(Resource) });
const Options = t.partial({ statuses: t.array(oneOf(SUBSCRIBER_STATUSES)), duplicateStrategy: oneOf(DUPLICATE_STRATEGIES), createdSince: t.string });
const Plan = t.type({ resourceIds: t.array(t.string), resourceOptions: t.record(t.string, Options), approvedAt: nullable(IsoText) });
const ResourceProgress = t.type({
  id: t.string,
  type: oneOf(RESOURCE_TYPES),
  total: t.number,
  processed: t.number,
  queued: t.number,
  created: t.number,
  skipped: t.number,
  done: t.boolean,
  importId: nullable(t.string),
});
const Progress = t.type({ batches: t.number, resources: t.array(ResourceProgress) });
const Report = t.type({
  subscribersQueued: t.number,
  draftCampaignsCreated: t.number,
  draftSequencesCreated: t.number,
  draftTransactionalEmailsCreated: t.number,
  templatesCreated: t.number,
});
const Errors = t.array(t.type({ resourceId: nullable(t.string), message: t.string, at: IsoText }));

const RunRow = t.type({
  id: t.string,
  company_id: t.string,
  provider: oneOf(MIGRATION_PROVIDERS),
  status: oneOf(RUN_STATUSES),
  discovery: dbJson(Discovery),
  approved_plan: dbJson(Plan),
  progress: dbJson(Progress),
  report: dbJson(Report),
  errors: dbJson(Errors),
  version: DbInteger,
  created_at: DbDate,
  updated_at: DbDate,
  started_at: DbNullableDate,
  completed_at: DbNullableDate,
});

/** Every column but the sealed source: it is read only when a step needs it. */
const RUN_COLUMNS = Object.keys(RunRow.props);

function toRun(row: unknown): MigrationRun {
  const r = decodeRow(RunRow, row, "migration_runs");
  return {
    id: r.id,
    companyId: r.company_id,
    provider: r.provider,
    status: r.status,
    discovery: r.discovery,
    approvedPlan: r.approved_plan,
    progress: r.progress,
    report: r.report,
    errors: r.errors,
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    startedAt: r.started_at,
    completedAt: r.completed_at,
  };
}

/** The columns a save writes (dates inside the documents become ISO text through JSON.stringify). */
const changingColumns = (run: MigrationRun) => ({
  status: run.status,
  approved_plan: JSON.stringify(run.approvedPlan),
  progress: JSON.stringify(run.progress),
  report: JSON.stringify(run.report),
  errors: JSON.stringify(run.errors),
  updated_at: toDbDate(run.updatedAt),
  started_at: toDbDate(run.startedAt),
  completed_at: toDbDate(run.completedAt),
});

export class KnexMigrationRunRepository implements MigrationRunRepository {
  constructor(private readonly knex: Knex) {}

  async insert(run: MigrationRun, sealedSource: string): Promise<void> {
    await this.knex("migration_runs").insert({
      id: run.id,
      company_id: run.companyId,
      provider: run.provider,
      source_sealed: sealedSource,
      discovery: JSON.stringify(run.discovery),
      version: run.version,
      created_at: toDbDate(run.createdAt),
      ...changingColumns(run),
    });
  }

  async find(companyId: string, id: string): Promise<MigrationRun | null> {
    const row = await this.knex("migration_runs").where({ company_id: companyId, id }).first(RUN_COLUMNS);
    return row ? toRun(row) : null;
  }

  async findOwner(companyIds: readonly string[], id: string): Promise<string | null> {
    if (companyIds.length === 0) return null;
    const row: { company_id: string } | undefined = await this.knex("migration_runs").whereIn("company_id", companyIds).where({ id }).first("company_id");
    return row?.company_id ?? null;
  }

  async sealedSource(companyId: string, id: string): Promise<string | null> {
    const row: { source_sealed: string } | undefined = await this.knex("migration_runs").where({ company_id: companyId, id }).first("source_sealed");
    return row?.source_sealed ?? null;
  }

  async save(run: MigrationRun, expected: { readonly status: RunStatus; readonly version: number }): Promise<boolean> {
    const changed = await this.knex("migration_runs")
      .where({ company_id: run.companyId, id: run.id, status: expected.status, version: expected.version })
      .update({ ...changingColumns(run), version: expected.version + 1 });
    return changed > 0;
  }

  async claimDraft(claim: DraftClaim, now: Date): Promise<{ entityId: string; claimed: boolean }> {
    const key = { run_id: claim.runId, resource_id: claim.resourceId, source_ref: claim.sourceRef };
    const inserted = await this.knex("migration_run_drafts")
      .insert({ ...key, company_id: claim.companyId, entity_id: claim.entityId, created_at: toDbDate(now) })
      .onConflict(["run_id", "resource_id", "source_ref"])
      .ignore()
      .returning("entity_id");
    if (inserted.length > 0) return { entityId: claim.entityId, claimed: true };
    const row: { entity_id: string } | undefined = await this.knex("migration_run_drafts").where(key).first("entity_id");
    if (!row) throw new Error(`draft ${claim.sourceRef} of migration run ${claim.runId} vanished`);
    return { entityId: row.entity_id, claimed: false };
  }

  async countDrafts(runId: string, resourceId: string): Promise<number> {
    const row = await this.knex("migration_run_drafts").where({ run_id: runId, resource_id: resourceId }).count("* as n").first();
    return decodeRow(t.type({ n: DbInteger }), row, "migration_run_drafts").n;
  }
}
