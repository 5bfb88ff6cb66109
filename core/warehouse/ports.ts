import type { ConnectionKind, WarehouseConnection, WarehouseSync, WarehouseSyncRun } from "./model.js";
import type { StoredContact, WarehouseValues } from "./row-mapping.js";
import { token } from "../shared/token.js";

/** Where a warehouse is, with its URL in plain text (unsealed only for the call). */
export interface WarehouseSource {
  readonly kind: ConnectionKind;
  readonly url: string;
}

/** A read of the user's query, wrapped so that the query itself need not know the cursor. */
export interface WarehouseRead {
  /** The user's read query. */
  readonly query: string;
  /** Rows come ordered by this column, those with NULL in it left out; null: every row, in no order. */
  readonly cursorColumn: string | null;
  /** Only rows whose cursor is greater than this (null: from the first). */
  readonly after: string | null;
  /** Rows at most. */
  readonly limit: number;
  readonly statementTimeoutMs: number;
  readonly batchSize: number;
}

export interface WarehouseRow {
  readonly values: WarehouseValues;
  /** The cursor column's value as text, exactly as the warehouse compares it; null without a cursor column. */
  readonly cursor: string | null;
}

/**
 * A failure of the warehouse or of the query, readable by the customer (never holding the
 * password): `connection` when it could not be reached (or its address is refused), `query` when
 * the query failed (syntax, a write refused by the read-only transaction, the statement timeout).
 */
export class WarehouseError extends Error {
  override readonly name = "WarehouseError";
  constructor(
    readonly kind: "connection" | "query",
    message: string,
  ) {
    super(message);
  }
}

/**
 * Reads a company's warehouse. Every query runs read-only (a READ ONLY transaction on Postgres, a
 * read-only file on SQLite) with a statement timeout; a Postgres host must resolve to a public
 * address, checked on the address actually connected to, unless ALLOW_PRIVATE_DESTINATIONS.
 * Methods reject with WarehouseError.
 */
export interface WarehouseReader {
  /** Connects and runs a trivial read-only query. */
  check(source: WarehouseSource, timeoutMs: number): Promise<void>;
  /** The names of the columns the query returns, without reading its rows. */
  columns(source: WarehouseSource, query: string, timeoutMs: number): Promise<string[]>;
  /** The rows of the read, in batches of at most `batchSize`; breaking out of the loop closes the connection. */
  read(source: WarehouseSource, read: WarehouseRead): AsyncIterable<readonly WarehouseRow[]>;
}
export const WarehouseReader = token<WarehouseReader>("lifecycle.WarehouseReader");

export interface WarehouseConnectionRepository {
  insert(connection: WarehouseConnection): Promise<void>;
  find(companyId: string, id: string): Promise<WarehouseConnection | null>;
  /** Newest first. */
  list(companyId: string): Promise<WarehouseConnection[]>;
}
export const WarehouseConnectionRepository = token<WarehouseConnectionRepository>("lifecycle.WarehouseConnectionRepository");

export interface SyncPage {
  readonly syncs: WarehouseSync[];
  readonly hasMore: boolean;
}

/** Writes made while a sync is held (see WarehouseSyncRepository.update). */
export interface SyncWork {
  /** The sync's queued or running run, if any. */
  activeRun(): Promise<WarehouseSyncRun | null>;
  findRun(id: string): Promise<WarehouseSyncRun | null>;
  save(sync: WarehouseSync): Promise<void>;
  /** False when the sync already has a queued or running run (nothing is inserted). */
  insertRun(run: WarehouseSyncRun): Promise<boolean>;
  saveRun(run: WarehouseSyncRun): Promise<void>;
}

export interface WarehouseSyncRepository {
  insert(sync: WarehouseSync): Promise<void>;
  find(companyId: string, id: string): Promise<WarehouseSync | null>;
  /** Newest first, `limit` syncs created before `beforeId` (null: from the newest). */
  list(companyId: string, limit: number, beforeId: string | null): Promise<SyncPage>;
  /** Enabled syncs whose next run is due, across companies, oldest due first. */
  findDue(now: Date, limit: number): Promise<WarehouseSync[]>;
  /**
   * Runs `work` in one transaction with the sync locked (a run's start and end, a manual run and
   * an update of the sync wait for each other), with everything it writes. Resolves to what
   * `work` returns, or null when the company has no such sync.
   */
  update<T>(companyId: string, id: string, work: (sync: WarehouseSync, tx: SyncWork) => Promise<T>): Promise<T | null>;

  findRun(companyId: string, id: string): Promise<WarehouseSyncRun | null>;
  /** The runs of one sync, newest first. */
  listRuns(companyId: string, syncId: string, limit: number): Promise<WarehouseSyncRun[]>;
  /** The runs with these IDs (the latest runs of a page of syncs). */
  findRuns(companyId: string, ids: readonly string[]): Promise<WarehouseSyncRun[]>;
  /** Saves a running run's progress: counts, samples and imports (their link rows included). */
  saveRun(run: WarehouseSyncRun): Promise<void>;

  /** The company's contacts with these (lower-cased) emails, with their memberships of `listIds`. */
  findContacts(companyId: string, emails: readonly string[], listIds: readonly string[]): Promise<Map<string, StoredContact>>;
}
export const WarehouseSyncRepository = token<WarehouseSyncRepository>("lifecycle.WarehouseSyncRepository");
