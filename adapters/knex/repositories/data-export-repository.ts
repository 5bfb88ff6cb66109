import * as t from "io-ts";
import type { Knex } from "knex";
import { RUN_STATUSES, RUN_TRIGGERS, type ExportRun } from "../../../core/data-exports/export-run.js";
import { CREDENTIAL_TYPES, DATASETS, EXPORT_STATUSES, FREQUENCIES, PROVIDERS, type DataExport, type Watermarks } from "../../../core/data-exports/model.js";
import type { DataExportRepository, ExportState, ExportStep, RunPage } from "../../../core/data-exports/ports.js";
import { nullable, oneOf } from "../../../core/shared/codecs.js";
import { isPostgres } from "../connection.js";
import { DbBoolean, DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

type Db = Knex | Knex.Transaction;

/** Watermarks as stored: dates as ISO strings. */
const StoredCursor = t.type({ at: t.string, id: t.string });
const StoredWatermarks = t.type({
  events: t.partial({ email_events: StoredCursor, sms_events: StoredCursor, custom_events: StoredCursor }),
  subscribers: t.type({
    completed: nullable(t.string),
    current: nullable(t.type({ date: t.string, afterId: nullable(t.string), part: t.number })),
  }),
});

const ExportRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  provider: oneOf(PROVIDERS),
  bucket: t.string,
  region: t.string,
  endpoint: nullable(t.string),
  path_prefix: t.string,
  credential_type: oneOf(CREDENTIAL_TYPES),
  access_key_id: t.string,
  secret_sealed: t.string,
  key_fingerprint: nullable(t.string),
  datasets: dbJson(t.array(oneOf(DATASETS))),
  frequency: oneOf(FREQUENCIES),
  is_enabled: DbBoolean,
  status: oneOf(EXPORT_STATUSES),
  start_from: DbDate,
  exported_through: dbJson(StoredWatermarks),
  next_run_at: DbNullableDate,
  last_run_at: DbNullableDate,
  last_success_at: DbNullableDate,
  last_error: nullable(t.string),
  last_error_at: DbNullableDate,
  consecutive_failures: DbInteger,
  total_rows_exported: DbInteger,
  created_at: DbDate,
  updated_at: DbDate,
  deleted_at: DbNullableDate,
});

function toWatermarks(stored: t.TypeOf<typeof StoredWatermarks>): Watermarks {
  const events: Record<string, { at: Date; id: string }> = {};
  for (const [dataset, cursor] of Object.entries(stored.events)) if (cursor) events[dataset] = { at: new Date(cursor.at), id: cursor.id };
  return { events, subscribers: stored.subscribers };
}

const fromWatermarks = (w: Watermarks): t.TypeOf<typeof StoredWatermarks> => ({
  events: Object.fromEntries(Object.entries(w.events).map(([dataset, cursor]) => [dataset, { at: cursor.at.toISOString(), id: cursor.id }])),
  subscribers: w.subscribers,
});

function toExport(row: unknown): DataExport {
  const r = decodeRow(ExportRow, row, "data_exports");
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    destination: {
      provider: r.provider,
      bucket: r.bucket,
      region: r.region,
      endpoint: r.endpoint,
      pathPrefix: r.path_prefix,
      credentialType: r.credential_type,
      accessKeyId: r.access_key_id,
      secretSealed: r.secret_sealed,
      keyFingerprint: r.key_fingerprint,
    },
    datasets: r.datasets,
    frequency: r.frequency,
    isEnabled: r.is_enabled,
    status: r.status,
    startFrom: r.start_from,
    watermarks: toWatermarks(r.exported_through),
    nextRunAt: r.next_run_at,
    lastRunAt: r.last_run_at,
    lastSuccessAt: r.last_success_at,
    lastError: r.last_error,
    lastErrorAt: r.last_error_at,
    consecutiveFailures: r.consecutive_failures,
    totalRowsExported: r.total_rows_exported,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
  };
}

const exportColumns = (e: DataExport) => ({
  name: e.name,
  provider: e.destination.provider,
  bucket: e.destination.bucket,
  region: e.destination.region,
  endpoint: e.destination.endpoint,
  path_prefix: e.destination.pathPrefix,
  credential_type: e.destination.credentialType,
  access_key_id: e.destination.accessKeyId,
  secret_sealed: e.destination.secretSealed,
  key_fingerprint: e.destination.keyFingerprint,
  datasets: JSON.stringify(e.datasets),
  frequency: e.frequency,
  is_enabled: e.isEnabled,
  status: e.status,
  start_from: toDbDate(e.startFrom),
  exported_through: JSON.stringify(fromWatermarks(e.watermarks)),
  next_run_at: toDbDate(e.nextRunAt),
  last_run_at: toDbDate(e.lastRunAt),
  last_success_at: toDbDate(e.lastSuccessAt),
  last_error: e.lastError,
  last_error_at: toDbDate(e.lastErrorAt),
  consecutive_failures: e.consecutiveFailures,
  total_rows_exported: e.totalRowsExported,
  updated_at: toDbDate(e.updatedAt),
  deleted_at: toDbDate(e.deletedAt),
});

const DatasetRunCodec = t.type({
  rows: t.number,
  files: t.number,
  bytes: t.number,
  from: nullable(t.string),
  through: nullable(t.string),
  note: nullable(t.string),
});
const FileCodec = t.type({
  dataset: oneOf(DATASETS),
  key: t.string,
  rows: t.number,
  bytes: t.number,
  firstRecordedAt: nullable(t.string),
  lastRecordedAt: nullable(t.string),
});

const RunRow = t.type({
  id: t.string,
  company_id: t.string,
  data_export_id: t.string,
  trigger: oneOf(RUN_TRIGGERS),
  status: oneOf(RUN_STATUSES),
  datasets: dbJson(t.partial({ email_events: DatasetRunCodec, sms_events: DatasetRunCodec, custom_events: DatasetRunCodec, subscribers: DatasetRunCodec })),
  files: dbJson(t.array(FileCodec)),
  rows_exported: DbInteger,
  files_written: DbInteger,
  bytes_written: DbInteger,
  manifest_key: nullable(t.string),
  error: nullable(t.string),
  created_at: DbDate,
  started_at: DbNullableDate,
  finished_at: DbNullableDate,
  updated_at: DbDate,
});

function toRun(row: unknown): ExportRun {
  const r = decodeRow(RunRow, row, "data_export_runs");
  return {
    id: r.id,
    companyId: r.company_id,
    dataExportId: r.data_export_id,
    trigger: r.trigger,
    status: r.status,
    datasets: r.datasets,
    files: r.files,
    rowsExported: r.rows_exported,
    filesWritten: r.files_written,
    bytesWritten: r.bytes_written,
    manifestKey: r.manifest_key,
    error: r.error,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    updatedAt: r.updated_at,
  };
}

const runColumns = (r: ExportRun) => ({
  trigger: r.trigger,
  status: r.status,
  datasets: JSON.stringify(r.datasets),
  files: JSON.stringify(r.files),
  rows_exported: r.rowsExported,
  files_written: r.filesWritten,
  bytes_written: r.bytesWritten,
  manifest_key: r.manifestKey,
  error: r.error,
  started_at: toDbDate(r.startedAt),
  finished_at: toDbDate(r.finishedAt),
  updated_at: toDbDate(r.updatedAt),
});

const ACTIVE = ["queued", "running"] as const;

/** Data exports and their runs; every change of an export goes through `change`, under a lock. */
export class KnexDataExportRepository implements DataExportRepository {
  private readonly postgres: boolean;

  constructor(private readonly knex: Knex) {
    this.postgres = isPostgres(knex);
  }

  async create(dataExport: DataExport, run: ExportRun): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx("data_exports").insert({
        id: dataExport.id,
        company_id: dataExport.companyId,
        created_at: toDbDate(dataExport.createdAt),
        ...exportColumns(dataExport),
      });
      await this.insertRun(trx, run);
    });
  }

  async find(companyId: string, id: string): Promise<DataExport | null> {
    const row = await this.knex("data_exports").where({ company_id: companyId, id }).whereNull("deleted_at").first();
    return row ? toExport(row) : null;
  }

  async list(companyId: string): Promise<DataExport[]> {
    const rows = await this.knex("data_exports")
      .where({ company_id: companyId })
      .whereNull("deleted_at")
      .orderBy([{ column: "created_at" }, { column: "id" }]);
    return rows.map(toExport);
  }

  change<T>(companyId: string, id: string, decide: (state: ExportState) => ExportStep<T>): Promise<T | null> {
    return this.knex.transaction(async (trx) => {
      const select = trx("data_exports").where({ company_id: companyId, id });
      // Postgres: concurrent changes of one export wait here. SQLite: its single writer serialises them.
      const row = await (this.postgres ? select.forUpdate() : select).first();
      if (!row) return null;
      const active = await trx("data_export_runs").where({ data_export_id: id }).whereIn("status", ACTIVE).first();
      const step = decide({ dataExport: toExport(row), activeRun: active ? toRun(active) : null });
      if (step.save) {
        const { dataExport, runs = [] } = step.save;
        await trx("data_exports").where({ company_id: companyId, id }).update(exportColumns(dataExport));
        // Runs leaving the active states first, so a new active run never meets the old one in the unique index.
        const ordered = [...runs].sort((a, b) => Number(ACTIVE.includes(a.status as never)) - Number(ACTIVE.includes(b.status as never)));
        for (const run of ordered) {
          const updated = await trx("data_export_runs").where({ id: run.id, data_export_id: id }).update(runColumns(run));
          if (updated === 0) await this.insertRun(trx, run);
        }
      }
      return step.value;
    });
  }

  private async insertRun(db: Db, run: ExportRun): Promise<void> {
    await db("data_export_runs").insert({
      id: run.id,
      company_id: run.companyId,
      data_export_id: run.dataExportId,
      created_at: toDbDate(run.createdAt),
      ...runColumns(run),
    });
  }

  async findRun(companyId: string, dataExportId: string, runId: string): Promise<ExportRun | null> {
    const row = await this.knex("data_export_runs").where({ company_id: companyId, data_export_id: dataExportId, id: runId }).first();
    return row ? toRun(row) : null;
  }

  async listRuns(companyId: string, dataExportId: string, page: RunPage): Promise<ExportRun[]> {
    const query = this.knex("data_export_runs").where({ company_id: companyId, data_export_id: dataExportId });
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

  async findDue(now: Date, limit: number): Promise<Array<{ companyId: string; id: string }>> {
    const rows: Array<{ id: string; company_id: string }> = await this.knex("data_exports")
      .whereNull("deleted_at")
      .where("next_run_at", "<=", toDbDate(now))
      .where("is_enabled", true)
      .whereIn("status", ["idle", "failed"])
      .orderBy("next_run_at")
      .limit(limit)
      .select("id", "company_id");
    return rows.map((row) => ({ companyId: row.company_id, id: row.id }));
  }

  async findActiveRuns(limit: number): Promise<ExportRun[]> {
    const rows = await this.knex("data_export_runs").whereIn("status", ACTIVE).limit(limit);
    return rows.map(toRun);
  }
}
