import { invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { DuplicateStrategy, OptInMode } from "../subscribers/model.js";

/**
 * Subscriber imports: many contacts written in chunks, by a job (API) or in-process (CLI).
 *
 * Life of an import: `queued` until its first chunk is picked up; `running` while its chunks are
 * processed one transaction each; `completed` once every chunk is processed (rows that failed
 * are counted, they do not fail the import); `failed` when the import could not go on (the CLI
 * stopped reading its file, or every chunk failed).
 */

export const IMPORT_STATUSES = ["queued", "running", "completed", "failed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const isTerminal = (status: ImportStatus): boolean => status === "completed" || status === "failed";

/** Rows one API request may carry (compat-reference §4). */
export const MAX_IMPORT_ROWS = 5000;
/** Rows written per transaction: one job step, or one CLI batch. */
export const CHUNK_SIZE = 500;

/** Why a row was skipped: the keys of `skippedReasons`. */
export const SKIP_REASONS = {
  /** The email already appeared earlier in the same import (the first row wins). */
  duplicate: "duplicate_email",
  /** The contact exists and the duplicate strategy is `skip`. */
  exists: "already_exists",
} as const;

/** Why a row failed: the keys of `failedReasons`. */
export const FAIL_REASONS = {
  missingEmail: "missing_email",
  invalidEmail: "invalid_email",
  /** A field of the wrong type or out of bounds (the row is not a valid contact). */
  invalidField: "invalid_field",
  invalidTag: "invalid_tag",
  reservedAttribute: "reserved_attribute",
  /** The row's email and externalId belong to two different contacts. */
  externalIdConflict: "external_id_conflict",
  /** The chunk holding the row could not be written (see `failedChunkReasons`). */
  chunkFailed: "chunk_failed",
} as const;

export interface ImportOptions {
  readonly duplicateStrategy: DuplicateStrategy;
  /** Lists (resolved IDs) every added or updated contact joins. */
  readonly listIds: readonly string[];
  /** The created contacts start their contact_added sequences (compat default: false). */
  readonly enrollInSequences: boolean;
  readonly optInMode: OptInMode;
}

export type ReasonCounts = Readonly<Record<string, number>>;

export interface SubscriberImport {
  readonly id: string;
  readonly companyId: string;
  readonly status: ImportStatus;
  readonly fileName: string | null;
  /** The caller's idempotency key, unique per company. */
  readonly requestKey: string | null;
  readonly options: ImportOptions;
  readonly totalRows: number;
  /** Rows with a valid email address. */
  readonly emailCount: number;
  /** Rows whose email appeared earlier in the same import. */
  readonly duplicateRows: number;
  readonly processedCount: number;
  readonly addedCount: number;
  readonly updatedCount: number;
  readonly skippedCount: number;
  readonly failedCount: number;
  readonly chunkCount: number;
  readonly processedChunks: number;
  /** Skipped rows by reason: the counts sum to skippedCount. */
  readonly skippedReasons: ReasonCounts;
  /** Failed rows by reason: the counts sum to failedCount. */
  readonly failedReasons: ReasonCounts;
  /** Chunks that could not be written, by reason: the counts sum to the failed chunks. */
  readonly failedChunkReasons: ReasonCounts;
  readonly error: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly completedAt: Date | null;
}

/** What one chunk did to its rows. */
export interface ChunkOutcome {
  readonly added: number;
  readonly updated: number;
  readonly skipped: number;
  readonly failed: number;
  readonly skippedReasons: ReasonCounts;
  readonly failedReasons: ReasonCounts;
}

/** The rows of a chunk as counted when it is read. */
export interface ChunkTally {
  readonly rows: number;
  readonly emails: number;
  readonly duplicates: number;
}

export type ImportEvent =
  /** A chunk of rows joins the import (the CLI adds chunks as it reads its file). */
  | { readonly type: "chunkAdded"; readonly tally: ChunkTally }
  /** The first chunk is picked up. */
  | { readonly type: "start" }
  | { readonly type: "chunkProcessed"; readonly outcome: ChunkOutcome }
  /** A chunk could not be written: its rows all fail. */
  | { readonly type: "chunkFailed"; readonly rows: number; readonly reason: string }
  /** Every chunk is processed. */
  | { readonly type: "finish" }
  | { readonly type: "fail"; readonly error: string };

/** A new import record, before any row is counted. */
export function newImport(
  id: string,
  companyId: string,
  fileName: string | null,
  requestKey: string | null,
  options: ImportOptions,
  now: Date,
): SubscriberImport {
  return {
    id,
    companyId,
    status: "queued",
    fileName,
    requestKey,
    options,
    totalRows: 0,
    emailCount: 0,
    duplicateRows: 0,
    processedCount: 0,
    addedCount: 0,
    updatedCount: 0,
    skippedCount: 0,
    failedCount: 0,
    chunkCount: 0,
    processedChunks: 0,
    skippedReasons: {},
    failedReasons: {},
    failedChunkReasons: {},
    error: null,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
  };
}

export const EMPTY_OUTCOME: ChunkOutcome = { added: 0, updated: 0, skipped: 0, failed: 0, skippedReasons: {}, failedReasons: {} };

export const sumCounts = (counts: ReasonCounts): number => Object.values(counts).reduce((sum, n) => sum + n, 0);

export function addCounts(a: ReasonCounts, b: ReasonCounts): ReasonCounts {
  const sum: Record<string, number> = { ...a };
  for (const [reason, n] of Object.entries(b)) sum[reason] = (sum[reason] ?? 0) + n;
  return sum;
}

const refuse = (subscriberImport: SubscriberImport, event: ImportEvent) =>
  fail<SubscriberImport>(invalidState(`Import is ${subscriberImport.status}: cannot apply ${event.type}`));

const processed = (current: SubscriberImport, rows: number, now: Date): SubscriberImport => ({
  ...current,
  processedCount: current.processedCount + rows,
  processedChunks: current.processedChunks + 1,
  updatedAt: now,
});

/** The pure state machine of an import: every change of status and counters goes through here. */
export function transition(current: SubscriberImport, event: ImportEvent, now: Date): Result<SubscriberImport> {
  const { status } = current;
  const active = status === "queued" || status === "running";
  switch (event.type) {
    case "chunkAdded":
      if (!active) return refuse(current, event);
      return ok({
        ...current,
        totalRows: current.totalRows + event.tally.rows,
        emailCount: current.emailCount + event.tally.emails,
        duplicateRows: current.duplicateRows + event.tally.duplicates,
        chunkCount: current.chunkCount + 1,
        updatedAt: now,
      });
    case "start":
      return status === "queued" ? ok({ ...current, status: "running", updatedAt: now }) : refuse(current, event);
    case "chunkProcessed": {
      const { outcome } = event;
      const rows = outcome.added + outcome.updated + outcome.skipped + outcome.failed;
      if (status !== "running" || current.processedChunks >= current.chunkCount || current.processedCount + rows > current.totalRows)
        return refuse(current, event);
      return ok({
        ...processed(current, rows, now),
        addedCount: current.addedCount + outcome.added,
        updatedCount: current.updatedCount + outcome.updated,
        skippedCount: current.skippedCount + outcome.skipped,
        failedCount: current.failedCount + outcome.failed,
        skippedReasons: addCounts(current.skippedReasons, outcome.skippedReasons),
        failedReasons: addCounts(current.failedReasons, outcome.failedReasons),
      });
    }
    case "chunkFailed":
      if (status !== "running" || current.processedChunks >= current.chunkCount || current.processedCount + event.rows > current.totalRows)
        return refuse(current, event);
      return ok({
        ...processed(current, event.rows, now),
        failedCount: current.failedCount + event.rows,
        failedReasons: addCounts(current.failedReasons, { [FAIL_REASONS.chunkFailed]: event.rows }),
        failedChunkReasons: addCounts(current.failedChunkReasons, { [event.reason]: 1 }),
      });
    case "finish": {
      if (status !== "running" || current.processedChunks !== current.chunkCount) return refuse(current, event);
      // An import none of whose chunks could be written did nothing: it failed.
      const everyChunkFailed = current.chunkCount > 0 && sumCounts(current.failedChunkReasons) === current.chunkCount;
      return ok({
        ...current,
        status: everyChunkFailed ? "failed" : "completed",
        error: everyChunkFailed ? "No chunk of the import could be written" : current.error,
        updatedAt: now,
        completedAt: now,
      });
    }
    case "fail":
      return active ? ok({ ...current, status: "failed", error: event.error, updatedAt: now, completedAt: now }) : refuse(current, event);
  }
}
