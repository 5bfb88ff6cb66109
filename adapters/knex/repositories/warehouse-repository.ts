import * as t from "io-ts";
import type { Knex } from "knex";
import { nullable, oneOf } from "../../../core/shared/codecs.js";
import { OPT_IN_MODES } from "../../../core/subscribers/model.js";
import {
  CONNECTION_KINDS,
  FREQUENCY_NAMES,
  RUN_STATUSES,
  SYNC_KINDS,
  SYNC_STATUSES,
  type WarehouseConnection,
  type WarehouseSync,
  type WarehouseSyncRun,
} from "../../../core/warehouse/model.js";
import type { SyncPage, SyncWork, WarehouseConnectionRepository, WarehouseSyncRepository } from "../../../core/warehouse/ports.js";
import type { StoredContact } from "../../../core/warehouse/row-mapping.js";
import { isPostgres } from "../connection.js";
import { DbBoolean, DbDate, DbInteger, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";
import { toSubscriber } from "./subscriber-repository.js";
import { isUniqueViolation } from "../unique-violation.js";

type Db = Knex | Knex.Transaction;

const ConnectionRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  kind: oneOf(CONNECTION_KINDS),
  display_url: t.string,
  sealed_url: t.string,
  has_password: DbBoolean,
  created_at: DbDate,
  updated_at: DbDate,
});

function toConnection(row: unknown): WarehouseConnection {
  const r = decodeRow(ConnectionRow, row, "warehouse_connections");
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    kind: r.kind,
    displayUrl: r.display_url,
    sealedUrl: r.sealed_url,
    hasPassword: r.has_password,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const Mapping = t.type({
  emailColumn: t.string,
  firstNameColumn: nullable(t.string),
  attributes: t.array(t.type({ column: t.string, attribute: t.string })),
});

const SyncRow = t.type({
  id: t.string,
  company_id: t.string,
  connection_id: t.string,
  name: t.string,
  kind: oneOf(SYNC_KINDS),
  query: t.string,
  mapping: dbJson(Mapping),
  cursor_column: nullable(t.string),
  cursor_value: nullable(t.string),
  list_ids: dbJson(t.array(t.string)),
  opt_in_mode: oneOf(OPT_IN_MODES),
  trigger_automations: DbBoolean,
  frequency: oneOf(FREQUENCY_NAMES),
  is_enabled: DbBoolean,
  full_resync_requested: DbBoolean,
  max_rows_per_run: DbInteger,
  statement_timeout_seconds: DbInteger,
  status: oneOf(SYNC_STATUSES),
  next_run_at: DbNullableDate,
  last_run_at: DbNullableDate,
  last_success_at: DbNullableDate,
  last_error: nullable(t.string),
  last_error_at: DbNullableDate,
  consecutive_failures: DbInteger,
  latest_run_id: nullable(t.string),
  created_at: DbDate,
  updated_at: DbDate,
});

function toSync(row: unknown): WarehouseSync {
  const r = decodeRow(SyncRow, row, "warehouse_syncs");
  return {
    id: r.id,
    companyId: r.company_id,
    connectionId: r.connection_id,
    name: r.name,
    kind: r.kind,
    query: r.query,
    mapping: r.mapping,
    cursorColumn: r.cursor_column,
    cursorValue: r.cursor_value,
    listIds: r.list_ids,
    optInMode: r.opt_in_mode,
    triggerAutomations: r.trigger_automations,
    frequency: r.frequency,
    isEnabled: r.is_enabled,
    fullResyncRequested: r.full_resync_requested,
    maxRowsPerRun: r.max_rows_per_run,
    statementTimeoutSeconds: r.statement_timeout_seconds,
    status: r.status,
    nextRunAt: r.next_run_at,
    lastRunAt: r.last_run_at,
    lastSuccessAt: r.last_success_at,
    lastError: r.last_error,
    lastErrorAt: r.last_error_at,
    consecutiveFailures: r.consecutive_failures,
    latestRunId: r.latest_run_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Every column of a sync but its ID and company (what `save` writes). */
const syncColumns = (s: WarehouseSync) => ({
  connection_id: s.connectionId,
  name: s.name,
  kind: s.kind,
  query: s.query,
  mapping: JSON.stringify(s.mapping),
  cursor_column: s.cursorColumn,
  cursor_value: s.cursorValue,
  list_ids: JSON.stringify(s.listIds),
  opt_in_mode: s.optInMode,
  trigger_automations: s.triggerAutomations,
  frequency: s.frequency,
  is_enabled: s.isEnabled,
  full_resync_requested: s.fullResyncRequested,
  max_rows_per_run: s.maxRowsPerRun,
  statement_timeout_seconds: s.statementTimeoutSeconds,
  status: s.status,
  next_run_at: toDbDate(s.nextRunAt),
  last_run_at: toDbDate(s.lastRunAt),
  last_success_at: toDbDate(s.lastSuccessAt),
  last_error: s.lastError,
  last_error_at: toDbDate(s.lastErrorAt),
  consecutive_failures: s.consecutiveFailures,
  latest_run_id: s.latestRunId,
  created_at: toDbDate(s.createdAt),
  updated_at: toDbDate(s.updatedAt),
});

const RunRow = t.type({
  id: t.string,
  company_id: t.string,
  sync_id: t.string,
  status: oneOf(RUN_STATUSES),
  is_manual: DbBoolean,
  is_full_resync: DbBoolean,
  rows_read: DbInteger,
  rows_unchanged: DbInteger,
  rows_synced: DbInteger,
  rows_skipped: DbInteger,
  rows_failed: DbInteger,
  error_samples: dbJson(t.array(t.type({ row: t.number, reason: t.string }))),
  cursor_from: nullable(t.string),
  cursor_to: nullable(t.string),
  row_limit_reached: DbBoolean,
  error: nullable(t.string),
  attempts: DbInteger,
  created_at: DbDate,
  started_at: DbNullableDate,
  finished_at: DbNullableDate,
});

function toRun(row: unknown, importIds: readonly string[]): WarehouseSyncRun {
  const r = decodeRow(RunRow, row, "warehouse_sync_runs");
  return {
    id: r.id,
    companyId: r.company_id,
    syncId: r.sync_id,
    status: r.status,
    isManual: r.is_manual,
    isFullResync: r.is_full_resync,
    rowsRead: r.rows_read,
    rowsUnchanged: r.rows_unchanged,
    rowsSynced: r.rows_synced,
    rowsSkipped: r.rows_skipped,
    rowsFailed: r.rows_failed,
    errorSamples: r.error_samples,
    subscriberImportIds: importIds,
    cursorFrom: r.cursor_from,
    cursorTo: r.cursor_to,
    rowLimitReached: r.row_limit_reached,
    error: r.error,
    attempts: r.attempts,
    createdAt: r.created_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

/** The columns a run's progress changes. */
const progressColumns = (r: WarehouseSyncRun) => ({
  rows_read: r.rowsRead,
  rows_unchanged: r.rowsUnchanged,
  rows_synced: r.rowsSynced,
  rows_skipped: r.rowsSkipped,
  rows_failed: r.rowsFailed,
  error_samples: JSON.stringify(r.errorSamples),
});

/** Every column of a run but its ID, company and sync. */
const runColumns = (r: WarehouseSyncRun) => ({
  status: r.status,
  is_manual: r.isManual,
  is_full_resync: r.isFullResync,
  ...progressColumns(r),
  cursor_from: r.cursorFrom,
  cursor_to: r.cursorTo,
  row_limit_reached: r.rowLimitReached,
  error: r.error,
  attempts: r.attempts,
  created_at: toDbDate(r.createdAt),
  started_at: toDbDate(r.startedAt),
  finished_at: toDbDate(r.finishedAt),
});

/** The runs of these rows, with the imports each made, in order. */
async function runsOf(db: Db, rows: readonly { id: string }[]): Promise<WarehouseSyncRun[]> {
  if (rows.length === 0) return [];
  const links: Array<{ run_id: string; import_id: string }> = await db("warehouse_sync_run_imports")
    .whereIn(
      "run_id",
      rows.map((row) => row.id),
    )
    .orderBy(["run_id", "position"])
    .select("run_id", "import_id");
  return rows.map((row) =>
    toRun(
      row,
      links.filter((link) => link.run_id === row.id).map((link) => link.import_id),
    ),
  );
}

async function findRun(db: Db, companyId: string, id: string): Promise<WarehouseSyncRun | null> {
  const row = await db("warehouse_sync_runs").where({ company_id: companyId, id }).first();
  return row ? ((await runsOf(db, [row]))[0] ?? null) : null;
}

/** Saves the run's progress and links its new imports. */
async function saveRun(db: Db, run: WarehouseSyncRun, columns: Record<string, unknown>): Promise<void> {
  await db("warehouse_sync_runs").where({ company_id: run.companyId, id: run.id }).update(columns);
  if (run.subscriberImportIds.length === 0) return;
  const links = run.subscriberImportIds.map((importId, position) => ({ run_id: run.id, import_id: importId, company_id: run.companyId, position }));
  await db("warehouse_sync_run_imports").insert(links).onConflict(["run_id", "import_id"]).ignore();
}

export class KnexWarehouseConnectionRepository implements WarehouseConnectionRepository {
  constructor(private readonly knex: Knex) {}

  async insert(c: WarehouseConnection): Promise<void> {
    await this.knex("warehouse_connections").insert({
      id: c.id,
      company_id: c.companyId,
      name: c.name,
      kind: c.kind,
      display_url: c.displayUrl,
      sealed_url: c.sealedUrl,
      has_password: c.hasPassword,
      created_at: toDbDate(c.createdAt),
      updated_at: toDbDate(c.updatedAt),
    });
  }

  async find(companyId: string, id: string): Promise<WarehouseConnection | null> {
    const row = await this.knex("warehouse_connections").where({ company_id: companyId, id }).first();
    return row ? toConnection(row) : null;
  }

  async list(companyId: string): Promise<WarehouseConnection[]> {
    const rows: unknown[] = await this.knex("warehouse_connections").where({ company_id: companyId }).orderBy("id", "desc");
    return rows.map(toConnection);
  }
}

/** One update's reads and writes, inside the transaction that holds the sync. */
class KnexSyncWork implements SyncWork {
  constructor(
    private readonly trx: Knex.Transaction,
    private readonly sync: WarehouseSync,
  ) {}

  async activeRun(): Promise<WarehouseSyncRun | null> {
    const row = await this.trx("warehouse_sync_runs")
      .where({ company_id: this.sync.companyId, sync_id: this.sync.id })
      .whereIn("status", ["queued", "running"])
      .first();
    return row ? ((await runsOf(this.trx, [row]))[0] ?? null) : null;
  }

  findRun(id: string): Promise<WarehouseSyncRun | null> {
    return findRun(this.trx, this.sync.companyId, id);
  }

  async save(sync: WarehouseSync): Promise<void> {
    await this.trx("warehouse_syncs").where({ company_id: this.sync.companyId, id: this.sync.id }).update(syncColumns(sync));
  }

  async insertRun(run: WarehouseSyncRun): Promise<boolean> {
    try {
      // A savepoint: on Postgres a refused insert would otherwise abort the whole transaction.
      await this.trx.transaction(async (inner) => {
        await inner("warehouse_sync_runs").insert({ id: run.id, company_id: run.companyId, sync_id: run.syncId, ...runColumns(run) });
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  saveRun(run: WarehouseSyncRun): Promise<void> {
    return saveRun(this.trx, run, runColumns(run));
  }
}

export class KnexWarehouseSyncRepository implements WarehouseSyncRepository {
  private readonly postgres: boolean;

  constructor(private readonly knex: Knex) {
    this.postgres = isPostgres(knex);
  }

  async insert(sync: WarehouseSync): Promise<void> {
    await this.knex("warehouse_syncs").insert({ id: sync.id, company_id: sync.companyId, ...syncColumns(sync) });
  }

  async find(companyId: string, id: string): Promise<WarehouseSync | null> {
    const row = await this.knex("warehouse_syncs").where({ company_id: companyId, id }).first();
    return row ? toSync(row) : null;
  }

  async list(companyId: string, limit: number, beforeId: string | null): Promise<SyncPage> {
    const query = this.knex("warehouse_syncs").where({ company_id: companyId });
    if (beforeId) query.where("id", "<", beforeId);
    const rows: unknown[] = await query.orderBy("id", "desc").limit(limit + 1);
    return { syncs: rows.slice(0, limit).map(toSync), hasMore: rows.length > limit };
  }

  async findDue(now: Date, limit: number): Promise<WarehouseSync[]> {
    const rows: unknown[] = await this.knex("warehouse_syncs")
      // The predicate of the partial index warehouse_syncs_due, word for word.
      .whereRaw("is_enabled = true and next_run_at is not null")
      .where("next_run_at", "<=", toDbDate(now))
      .orderBy("next_run_at")
      .limit(limit);
    return rows.map(toSync);
  }

  update<T>(companyId: string, id: string, work: (sync: WarehouseSync, tx: SyncWork) => Promise<T>): Promise<T | null> {
    return this.knex.transaction(async (trx) => {
      const select = trx("warehouse_syncs").where({ company_id: companyId, id });
      // Postgres: concurrent updates of one sync wait here. SQLite: its single writer serialises them.
      const row = await (this.postgres ? select.forUpdate() : select).first();
      if (!row) return null;
      const sync = toSync(row);
      return work(sync, new KnexSyncWork(trx, sync));
    });
  }

  findRun(companyId: string, id: string): Promise<WarehouseSyncRun | null> {
    return findRun(this.knex, companyId, id);
  }

  async listRuns(companyId: string, syncId: string, limit: number): Promise<WarehouseSyncRun[]> {
    const rows = await this.knex("warehouse_sync_runs").where({ company_id: companyId, sync_id: syncId }).orderBy("id", "desc").limit(limit);
    return runsOf(this.knex, rows);
  }

  async findRuns(companyId: string, ids: readonly string[]): Promise<WarehouseSyncRun[]> {
    if (ids.length === 0) return [];
    const rows = await this.knex("warehouse_sync_runs").where({ company_id: companyId }).whereIn("id", ids);
    return runsOf(this.knex, rows);
  }

  saveRun(run: WarehouseSyncRun): Promise<void> {
    return this.knex.transaction((trx) => saveRun(trx, run, progressColumns(run)));
  }

  async findContacts(companyId: string, emails: readonly string[], listIds: readonly string[]): Promise<Map<string, StoredContact>> {
    const found = new Map<string, StoredContact>();
    if (emails.length === 0) return found;
    const rows: unknown[] = await this.knex("subscribers")
      .where({ company_id: companyId })
      .whereIn("email", [...new Set(emails)]);
    const contacts = rows.map(toSubscriber);
    const memberships: Array<{ subscriber_id: string; list_id: string }> =
      listIds.length > 0 && contacts.length > 0
        ? await this.knex("list_memberships")
            .where({ company_id: companyId })
            .whereIn("list_id", [...listIds])
            .whereIn(
              "subscriber_id",
              contacts.map((c) => c.id),
            )
            .select("subscriber_id", "list_id")
        : [];
    const listsOf = new Map<string, Set<string>>();
    for (const m of memberships) listsOf.set(m.subscriber_id, (listsOf.get(m.subscriber_id) ?? new Set()).add(m.list_id));
    for (const contact of contacts) {
      found.set(contact.email, { firstName: contact.firstName, customAttributes: contact.customAttributes, listIds: listsOf.get(contact.id) ?? new Set() });
    }
    return found;
  }
}
