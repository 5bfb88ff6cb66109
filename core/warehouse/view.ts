import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import { IMPORT_STATUSES, type SubscriberImport } from "../subscriber-imports/model.js";
import { OPT_IN_MODES } from "../subscribers/model.js";
import {
  CONNECTION_KINDS,
  FREQUENCY_NAMES,
  RUN_STATUSES,
  SYNC_KINDS,
  SYNC_STATUSES,
  type WarehouseConnection,
  type WarehouseSync,
  type WarehouseSyncRun,
} from "./model.js";

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/** A connection as the API shows it: the URL's password is never part of it. */
export const ConnectionView = view(
  {
    id: Id,
    name: t.string,
    kind: oneOf(CONNECTION_KINDS, "ConnectionKind"),
    /** The URL with its password replaced by `****`. */
    url: t.string,
    hasPassword: t.boolean,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "WarehouseConnection",
);
export type ConnectionView = t.TypeOf<typeof ConnectionView>;

export const toConnectionView = (c: WarehouseConnection): ConnectionView => ({
  id: c.id,
  name: c.name,
  kind: c.kind,
  url: c.displayUrl,
  hasPassword: c.hasPassword,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

/** One import a run made (spec, Warehouse sync: latestRun.imports[]). */
export const RunImportView = view(
  {
    id: Id,
    status: oneOf(IMPORT_STATUSES, "ImportStatus"),
    totalRows: t.number,
    processedCount: t.number,
    addedCount: t.number,
    updatedCount: t.number,
    skippedCount: t.number,
    failedCount: t.number,
    error: NullableString,
    startedAt: Timestamp,
    finishedAt: NullableTimestamp,
  },
  "WarehouseRunImport",
);
export type RunImportView = t.TypeOf<typeof RunImportView>;

export const toRunImportView = (i: SubscriberImport): RunImportView => ({
  id: i.id,
  status: i.status,
  totalRows: i.totalRows,
  processedCount: i.processedCount,
  addedCount: i.addedCount,
  updatedCount: i.updatedCount,
  skippedCount: i.skippedCount,
  failedCount: i.failedCount,
  error: i.error,
  // A run's import starts running when it is created.
  startedAt: i.createdAt.toISOString(),
  finishedAt: iso(i.completedAt),
});

/** A run (spec, Warehouse sync: latestRun), plus the cursor range it read and its error. */
export const RunView = view(
  {
    id: Id,
    syncId: Id,
    status: oneOf(RUN_STATUSES, "WarehouseRunStatus"),
    isManual: t.boolean,
    isFullResync: t.boolean,
    rowsRead: t.number,
    rowsUnchanged: t.number,
    rowsSynced: t.number,
    rowsSkipped: t.number,
    rowsFailed: t.number,
    errorSamples: t.readonlyArray(view({ row: t.number, reason: t.string })),
    subscriberImportIds: t.readonlyArray(Id),
    imports: t.readonlyArray(RunImportView),
    cursorFrom: NullableString,
    cursorTo: NullableString,
    rowLimitReached: t.boolean,
    error: NullableString,
    createdAt: Timestamp,
    startedAt: NullableTimestamp,
    finishedAt: NullableTimestamp,
  },
  "WarehouseSyncRun",
);
export type RunView = t.TypeOf<typeof RunView>;

export const toRunView = (r: WarehouseSyncRun, imports: readonly SubscriberImport[]): RunView => ({
  id: r.id,
  syncId: r.syncId,
  status: r.status,
  isManual: r.isManual,
  isFullResync: r.isFullResync,
  rowsRead: r.rowsRead,
  rowsUnchanged: r.rowsUnchanged,
  rowsSynced: r.rowsSynced,
  rowsSkipped: r.rowsSkipped,
  rowsFailed: r.rowsFailed,
  errorSamples: r.errorSamples,
  subscriberImportIds: r.subscriberImportIds,
  imports: r.subscriberImportIds.flatMap((id) => imports.filter((i) => i.id === id)).map(toRunImportView),
  cursorFrom: r.cursorFrom,
  cursorTo: r.cursorTo,
  rowLimitReached: r.rowLimitReached,
  error: r.error,
  createdAt: r.createdAt.toISOString(),
  startedAt: iso(r.startedAt),
  finishedAt: iso(r.finishedAt),
});

/** The spec resource "Warehouse sync". */
export const SyncView = view(
  {
    id: Id,
    connectionId: Id,
    name: t.string,
    kind: oneOf(SYNC_KINDS, "SyncKind"),
    query: t.string,
    mapping: view({
      emailColumn: t.string,
      firstNameColumn: NullableString,
      attributes: t.readonlyArray(view({ column: t.string, attribute: t.string })),
    }),
    cursorColumn: NullableString,
    cursorValue: NullableString,
    listIds: t.readonlyArray(Id),
    optInMode: oneOf(OPT_IN_MODES, "OptInMode"),
    triggerAutomations: t.boolean,
    frequency: oneOf(FREQUENCY_NAMES, "SyncFrequency"),
    isEnabled: t.boolean,
    fullResyncRequested: t.boolean,
    maxRowsPerRun: t.number,
    statementTimeoutSeconds: t.number,
    status: oneOf(SYNC_STATUSES, "SyncStatus"),
    nextRunAt: NullableTimestamp,
    lastRunAt: NullableTimestamp,
    lastSuccessAt: NullableTimestamp,
    lastErrorAt: NullableTimestamp,
    lastError: NullableString,
    consecutiveFailures: t.number,
    latestRun: t.union([RunView, t.null]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "WarehouseSync",
);
export type SyncView = t.TypeOf<typeof SyncView>;

export const toSyncView = (s: WarehouseSync, latestRun: RunView | null): SyncView => ({
  id: s.id,
  connectionId: s.connectionId,
  name: s.name,
  kind: s.kind,
  query: s.query,
  mapping: s.mapping,
  cursorColumn: s.cursorColumn,
  cursorValue: s.cursorValue,
  listIds: s.listIds,
  optInMode: s.optInMode,
  triggerAutomations: s.triggerAutomations,
  frequency: s.frequency,
  isEnabled: s.isEnabled,
  fullResyncRequested: s.fullResyncRequested,
  maxRowsPerRun: s.maxRowsPerRun,
  statementTimeoutSeconds: s.statementTimeoutSeconds,
  status: s.status,
  nextRunAt: iso(s.nextRunAt),
  lastRunAt: iso(s.lastRunAt),
  lastSuccessAt: iso(s.lastSuccessAt),
  lastErrorAt: iso(s.lastErrorAt),
  lastError: s.lastError,
  consecutiveFailures: s.consecutiveFailures,
  latestRun,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});
