import { invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { OptInMode } from "../subscribers/model.js";
import { retryDelayMs as jobRetryDelayMs } from "../jobs/retry-delay.js";

/**
 * Warehouse syncs: a read query run against a company's own warehouse (Postgres, or a SQLite file
 * when private destinations are allowed) whose rows become contacts through the import pipeline.
 *
 * Life of a sync (the spec shows `idle`): `idle` when it is created and between runs; `queued`
 * once a run is waiting for a worker; `running` while it reads and imports; `idle` again when the
 * run ends, whatever its outcome (a failure shows in lastError, consecutiveFailures and the
 * latest run's status until a run succeeds). Its first run comes when asked (manual) or when
 * its schedule comes due, one interval after creation. Runs: `queued` -> `running` ->
 * `succeeded` | `failed`.
 */

export const CONNECTION_KINDS = ["postgres", "sqlite"] as const;
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

export const SYNC_KINDS = ["subscribers"] as const;
export type SyncKind = (typeof SYNC_KINDS)[number];

export const SYNC_STATUSES = ["idle", "queued", "running"] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

export const RUN_STATUSES = ["queued", "running", "succeeded", "failed"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const isActiveRun = (status: RunStatus): boolean => status === "queued" || status === "running";

/** How often a scheduled run starts, counted from the end of the previous run (the first one from the sync's creation). */
export const FREQUENCIES = {
  every_15_minutes: 15 * 60_000,
  hourly: 60 * 60_000,
  daily: 24 * 60 * 60_000,
} as const;
export type Frequency = keyof typeof FREQUENCIES;
export const FREQUENCY_NAMES = Object.keys(FREQUENCIES) as Frequency[];

/** When a new sync's schedule first comes due: one interval after its creation; never while it is disabled. */
export const firstRunAt = (frequency: Frequency, isEnabled: boolean, now: Date): Date | null =>
  isEnabled ? new Date(now.getTime() + FREQUENCIES[frequency]) : null;

/** A failed run is tried again sooner than never: the interval doubled per failure, at most 6 hours later. */
export const MAX_RETRY_DELAY_MS = 6 * 60 * 60_000;
export const retryDelayMs = (frequency: Frequency, consecutiveFailures: number): number =>
  jobRetryDelayMs(consecutiveFailures, FREQUENCIES[frequency], MAX_RETRY_DELAY_MS);

export const DEFAULT_MAX_ROWS_PER_RUN = 100_000;
export const MAX_ROWS_PER_RUN = 1_000_000;
export const DEFAULT_STATEMENT_TIMEOUT_SECONDS = 60;
export const MAX_STATEMENT_TIMEOUT_SECONDS = 600;
/** Error samples a run keeps (the counts keep counting). */
export const MAX_ERROR_SAMPLES = 20;
/** Rows read from the warehouse and imported per step: one import chunk. */
export const ROWS_PER_BATCH = 500;

export interface AttributeMapping {
  readonly column: string;
  readonly attribute: string;
}

export interface SyncMapping {
  readonly emailColumn: string;
  readonly firstNameColumn: string | null;
  readonly attributes: readonly AttributeMapping[];
}

export interface WarehouseConnection {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly kind: ConnectionKind;
  /** The URL as shown: its password replaced by `****`. */
  readonly displayUrl: string;
  /** The whole URL, sealed with the SecretBox. */
  readonly sealedUrl: string;
  readonly hasPassword: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface WarehouseSync {
  readonly id: string;
  readonly companyId: string;
  readonly connectionId: string;
  readonly name: string;
  readonly kind: SyncKind;
  readonly query: string;
  readonly mapping: SyncMapping;
  readonly cursorColumn: string | null;
  /** The cursor of the last row synced: the next incremental run reads rows past it. */
  readonly cursorValue: string | null;
  readonly listIds: readonly string[];
  readonly optInMode: OptInMode;
  readonly triggerAutomations: boolean;
  readonly frequency: Frequency;
  readonly isEnabled: boolean;
  /** The next run ignores the cursor; cleared when a full run succeeds. */
  readonly fullResyncRequested: boolean;
  readonly maxRowsPerRun: number;
  readonly statementTimeoutSeconds: number;
  readonly status: SyncStatus;
  /** When the scheduler queues the next run; null while one is queued or running, or when disabled. */
  readonly nextRunAt: Date | null;
  readonly lastRunAt: Date | null;
  readonly lastSuccessAt: Date | null;
  readonly lastError: string | null;
  readonly lastErrorAt: Date | null;
  readonly consecutiveFailures: number;
  readonly latestRunId: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface ErrorSample {
  /** The row's position among the rows the run read, from 1. */
  readonly row: number;
  readonly reason: string;
}

export interface RunCounts {
  readonly rowsRead: number;
  readonly rowsUnchanged: number;
  readonly rowsSynced: number;
  readonly rowsSkipped: number;
  readonly rowsFailed: number;
}

export const NO_ROWS: RunCounts = { rowsRead: 0, rowsUnchanged: 0, rowsSynced: 0, rowsSkipped: 0, rowsFailed: 0 };

export interface WarehouseSyncRun extends RunCounts {
  readonly id: string;
  readonly companyId: string;
  readonly syncId: string;
  readonly status: RunStatus;
  readonly isManual: boolean;
  readonly isFullResync: boolean;
  readonly errorSamples: readonly ErrorSample[];
  /** The imports the run made, oldest first (a run restarted after a crash makes a new one). */
  readonly subscriberImportIds: readonly string[];
  /** The cursor the run started after (null: from the first row). */
  readonly cursorFrom: string | null;
  /** The cursor of its last row synced. */
  readonly cursorTo: string | null;
  /** More rows were waiting than maxRowsPerRun: the next run goes on from cursorTo. */
  readonly rowLimitReached: boolean;
  readonly error: string | null;
  /** Starts of the run (more than 1 after a worker died during it). */
  readonly attempts: number;
  readonly createdAt: Date;
  readonly startedAt: Date | null;
  readonly finishedAt: Date | null;
}

/** A new run of the sync, queued. It ignores the cursor when asked to, when one was requested, or when the sync has none. */
export function newRun(id: string, sync: WarehouseSync, options: { readonly manual: boolean; readonly fullResync: boolean }, now: Date): WarehouseSyncRun {
  const isFullResync = options.fullResync || sync.fullResyncRequested || sync.cursorColumn === null;
  return {
    id,
    companyId: sync.companyId,
    syncId: sync.id,
    status: "queued",
    isManual: options.manual,
    isFullResync,
    ...NO_ROWS,
    errorSamples: [],
    subscriberImportIds: [],
    cursorFrom: isFullResync ? null : sync.cursorValue,
    cursorTo: null,
    rowLimitReached: false,
    error: null,
    attempts: 0,
    createdAt: now,
    startedAt: null,
    finishedAt: null,
  };
}

export type SyncEvent =
  | { readonly type: "runQueued"; readonly run: WarehouseSyncRun }
  | { readonly type: "runStarted" }
  | { readonly type: "runSucceeded"; readonly run: WarehouseSyncRun }
  | { readonly type: "runFailed"; readonly error: string }
  | { readonly type: "enabled"; readonly isEnabled: boolean };

const refuse = (sync: WarehouseSync, event: SyncEvent) => fail<WarehouseSync>(invalidState(`Warehouse sync is ${sync.status}: cannot apply ${event.type}`));

/** The pure state machine of a sync: status and the state fields move only through here. */
export function transition(sync: WarehouseSync, event: SyncEvent, now: Date): Result<WarehouseSync> {
  const active = sync.status === "queued" || sync.status === "running";
  switch (event.type) {
    case "runQueued":
      if (active) return refuse(sync, event);
      return ok({
        ...sync,
        status: "queued",
        nextRunAt: null,
        latestRunId: event.run.id,
        // A manual full resync stays requested until a full run succeeds.
        fullResyncRequested: sync.fullResyncRequested || (event.run.isFullResync && sync.cursorColumn !== null),
        updatedAt: now,
      });
    case "runStarted":
      return active ? ok({ ...sync, status: "running", lastRunAt: now, updatedAt: now }) : refuse(sync, event);
    case "runSucceeded":
      if (!active) return refuse(sync, event);
      return ok({
        ...sync,
        status: "idle",
        // A run that synced no row leaves the cursor where it was.
        cursorValue: event.run.cursorTo ?? sync.cursorValue,
        fullResyncRequested: event.run.isFullResync ? false : sync.fullResyncRequested,
        lastSuccessAt: now,
        lastError: null,
        consecutiveFailures: 0,
        nextRunAt: sync.isEnabled ? new Date(now.getTime() + FREQUENCIES[sync.frequency]) : null,
        updatedAt: now,
      });
    case "runFailed": {
      if (!active) return refuse(sync, event);
      const consecutiveFailures = sync.consecutiveFailures + 1;
      return ok({
        ...sync,
        status: "idle",
        lastError: event.error,
        lastErrorAt: now,
        consecutiveFailures,
        nextRunAt: sync.isEnabled ? new Date(now.getTime() + retryDelayMs(sync.frequency, consecutiveFailures)) : null,
        updatedAt: now,
      });
    }
    case "enabled":
      return ok({
        ...sync,
        isEnabled: event.isEnabled,
        // Enabled again: due at once unless a run is under way (its end schedules the next).
        nextRunAt: !event.isEnabled ? null : active ? null : (sync.nextRunAt ?? now),
        updatedAt: now,
      });
  }
}

export type RunEvent =
  | { readonly type: "start" }
  | { readonly type: "progress"; readonly counts: RunCounts; readonly errorSamples: readonly ErrorSample[]; readonly subscriberImportIds: readonly string[] }
  | { readonly type: "succeed"; readonly cursorTo: string | null; readonly rowLimitReached: boolean }
  | { readonly type: "fail"; readonly error: string };

const refuseRun = (run: WarehouseSyncRun, event: RunEvent) =>
  fail<WarehouseSyncRun>(invalidState(`Warehouse sync run is ${run.status}: cannot apply ${event.type}`));

/**
 * The pure state machine of a run. `start` also restarts a run whose worker died: its counts
 * start again from zero (the rows are read again) and its earlier imports stay listed.
 */
export function runTransition(run: WarehouseSyncRun, event: RunEvent, now: Date): Result<WarehouseSyncRun> {
  const active = isActiveRun(run.status);
  switch (event.type) {
    case "start":
      if (!active) return refuseRun(run, event);
      return ok({ ...run, ...NO_ROWS, status: "running", errorSamples: [], attempts: run.attempts + 1, startedAt: run.startedAt ?? now });
    case "progress":
      return run.status === "running"
        ? ok({ ...run, ...event.counts, errorSamples: event.errorSamples, subscriberImportIds: event.subscriberImportIds })
        : refuseRun(run, event);
    case "succeed":
      return run.status === "running"
        ? ok({ ...run, status: "succeeded", cursorTo: event.cursorTo, rowLimitReached: event.rowLimitReached, finishedAt: now })
        : refuseRun(run, event);
    case "fail":
      return active ? ok({ ...run, status: "failed", error: event.error, finishedAt: now }) : refuseRun(run, event);
  }
}
