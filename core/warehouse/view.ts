import type { ImportStatus, SubscriberImport } from "../subscriber-imports/model.js";
import type { OptInMode } from "../subscribers/model.js";
import type {
  ConnectionKind,
  ErrorSample,
  Frequency,
  RunStatus,
  SyncKind,
  SyncMapping,
  SyncStatus,
  WarehouseConnection,
  WarehouseSync,
  WarehouseSyncRun,
} from "./model.js";

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

/** A connection as the API shows it: the URL's password is never part of it. */
export interface ConnectionView {
  readonly id: string;
  readonly name: string;
  readonly kind: ConnectionKind;
  /** The URL with its password replaced by `****`. */
  readonly url: string;
  readonly hasPassword: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

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
export interface RunImportView {
  readonly id: string;
  readonly status: ImportStatus;
  readonly totalRows: number;
  readonly processedCount: number;
  readonly addedCount: number;
  readonly updatedCount: number;
  readonly skippedCount: number;
  readonly failedCount: number;
  readonly error: string | null;
  readonly startedAt: string;
  readonly finishedAt: string | null;
}

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

export interface RunView {
  readonly id: string;
  readonly syncId: string;
  readonly status: RunStatus;
  readonly isManual: boolean;
  readonly isFullResync: boolean;
  readonly rowsRead: number;
  readonly rowsUnchanged: number;
  readonly rowsSynced: number;
  readonly rowsSkipped: number;
  readonly rowsFailed: number;
  readonly errorSamples: readonly ErrorSample[];
  readonly subscriberImportIds: readonly string[];
  readonly imports: readonly RunImportView[];
  readonly cursorFrom: string | null;
  readonly cursorTo: string | null;
  readonly rowLimitReached: boolean;
  readonly error: string | null;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
}

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
export interface SyncView {
  readonly id: string;
  readonly connectionId: string;
  readonly name: string;
  readonly kind: SyncKind;
  readonly query: string;
  readonly mapping: SyncMapping;
  readonly cursorColumn: string | null;
  readonly cursorValue: string | null;
  readonly listIds: readonly string[];
  readonly optInMode: OptInMode;
  readonly triggerAutomations: boolean;
  readonly frequency: Frequency;
  readonly isEnabled: boolean;
  readonly fullResyncRequested: boolean;
  readonly maxRowsPerRun: number;
  readonly statementTimeoutSeconds: number;
  readonly status: SyncStatus;
  readonly nextRunAt: string | null;
  readonly lastRunAt: string | null;
  readonly lastSuccessAt: string | null;
  readonly lastErrorAt: string | null;
  readonly lastError: string | null;
  readonly consecutiveFailures: number;
  readonly latestRun: RunView | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

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
