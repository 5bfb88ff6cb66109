import type { ExportRun } from "./export-run.js";
import type { DataExport, EventCursor } from "./model.js";
import type { CustomEventRecord, EmailEventRecord, SubscriberRecord } from "./records.js";
import { token } from "../shared/token.js";

/** An export and its run queued or running, if any, read under the export's lock. */
export interface ExportState {
  readonly dataExport: DataExport;
  readonly activeRun: ExportRun | null;
}

/** What a locked change saves: the export, and runs to insert or update (by ID). */
export interface ExportChange {
  readonly dataExport: DataExport;
  readonly runs?: readonly ExportRun[];
}

export interface ExportStep<T> {
  readonly save?: ExportChange;
  readonly value: T;
}

export interface RunPage {
  readonly limit: number;
  /** Runs created before this one (newest first). */
  readonly before: { readonly createdAt: Date; readonly id: string } | null;
}

export interface DataExportRepository {
  /** Saves a new export with its first run. */
  create(dataExport: DataExport, run: ExportRun): Promise<void>;
  /** The company's export, unless deleted. */
  find(companyId: string, id: string): Promise<DataExport | null>;
  /** The company's exports, oldest first, deleted ones left out. */
  list(companyId: string): Promise<DataExport[]>;
  /**
   * Reads the export (even a deleted one) and its active run with the export locked, so that
   * changes from requests and from the run's job never overwrite each other, and saves what
   * `decide` returns. Null when the company has no such export.
   */
  change<T>(companyId: string, id: string, decide: (state: ExportState) => ExportStep<T>): Promise<T | null>;
  findRun(companyId: string, dataExportId: string, runId: string): Promise<ExportRun | null>;
  /** Newest first, `limit` at most. */
  listRuns(companyId: string, dataExportId: string, page: RunPage): Promise<ExportRun[]>;
  /** Enabled, undeleted exports, idle or failed, whose next run is due. */
  findDue(now: Date, limit: number): Promise<Array<{ readonly companyId: string; readonly id: string }>>;
  /** Runs queued or running (their job may need enqueueing again). */
  findActiveRuns(limit: number): Promise<ExportRun[]>;
}
export const DataExportRepository = token<DataExportRepository>("lifecycle.DataExportRepository");

/** A row of an event dataset, with the position it holds in the dataset's order. */
export interface EventRow<R> {
  /** ISO recorded time (`record.recordedAt`). */
  readonly recordedAt: string;
  readonly id: string;
  readonly record: R;
}

/**
 * Reads what the export writes, a page at a time (never a whole dataset). Event pages are in
 * (recorded time, ID) order: rows after `after` and recorded before `before`.
 */
export interface ExportSource {
  emailEvents(companyId: string, after: EventCursor, before: Date, limit: number): Promise<ReadonlyArray<EventRow<EmailEventRecord>>>;
  customEvents(companyId: string, after: EventCursor, before: Date, limit: number): Promise<ReadonlyArray<EventRow<CustomEventRecord>>>;
  /** Subscribers in ID order, after `afterId`. */
  subscribers(companyId: string, afterId: string | null, limit: number): Promise<readonly SubscriberRecord[]>;
}
export const ExportSource = token<ExportSource>("lifecycle.ExportSource");

/** Reads a PEM private key (a service account's): its public key's fingerprint, or null when it is not a private key. */
export interface PrivateKeyReader {
  fingerprint(pem: string): string | null;
}
export const PrivateKeyReader = token<PrivateKeyReader>("lifecycle.PrivateKeyReader");
