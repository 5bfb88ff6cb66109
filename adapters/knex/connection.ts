import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { setImmediate as nextTurnOfTheLoop } from "node:timers/promises";
import knexFactory from "knex";
import type { Knex } from "knex";
import { parseDatabaseUrl } from "./database-url.js";
import { SqliteClient } from "./sqlite-client.js";

export interface ConnectionOptions {
  /** Postgres schema to work in (tests give each run its own); created when missing. */
  readonly schema?: string;
  /** Postgres pool size per process. */
  readonly poolMax?: number;
  /** Postgres `statement_timeout` of every connection, in ms (0 or unset: none); on SQLite see limitSqliteStatements. */
  readonly statementTimeoutMs?: number;
  /** Where knex's own warnings go (it prints to the console otherwise). */
  readonly log?: { warn(message: string): void; error(message: string): void };
}

const knexLog = (log: ConnectionOptions["log"]) =>
  log
    ? {
        log: {
          warn: (message: unknown) => log.warn(String(message)),
          error: (message: unknown) => log.error(String(message)),
          deprecate: (method: unknown, alternative: unknown) => log.warn(`${String(method)} is deprecated, use ${String(alternative)}`),
          debug: () => undefined,
        },
      }
    : {};

/** The parts of a better-sqlite3 connection this module touches. */
export interface SqliteHandle {
  pragma(source: string, options?: { simple: boolean }): unknown;
  prepare(source: string): unknown;
  loadExtension(path: string, entryPoint: string): void;
}

interface SqliteStatement {
  pluck(toggle?: boolean): SqliteStatement;
  get(...params: unknown[]): unknown;
}

/**
 * SQLite's count of commits by other connections: it moves whenever another process changed
 * the file. Read through the cached prepared statement (pragma() would prepare it every time).
 */
export const sqliteDataVersion = (connection: SqliteHandle): unknown => (connection.prepare("PRAGMA data_version") as SqliteStatement).pluck(true).get();

/** Prepared statements kept per connection: preparing costs more than running a lookup. */
const STATEMENT_CACHE_SIZE = 500;

function cacheStatements(connection: SqliteHandle): void {
  const prepare = connection.prepare.bind(connection);
  const statements = new Map<string, unknown>();
  connection.prepare = (source: string) => {
    let statement = statements.get(source);
    if (statement === undefined) {
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
      statement = prepare(source);
      statements.set(source, statement);
    }
    return statement;
  };
}

/** The SQLite extension that gives statements a time limit (native/statement-timeout.c), built by `npm install`. */
const STATEMENT_TIMEOUT_EXTENSION = fileURLToPath(new URL("../../../adapters/knex/native/build/Release/statement_timeout.node", import.meta.url));

/** Loads the time limit into a new connection; says why when it cannot (not built: no C compiler at install). */
function loadStatementTimeout(connection: SqliteHandle): string | null {
  try {
    connection.loadExtension(STATEMENT_TIMEOUT_EXTENSION, "sqlite3_statementtimeout_init");
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

interface SqliteHolder {
  connection?: SqliteHandle;
  /** Why the connection has no time limit extension (null: it has it). */
  extensionMissing?: string | null;
  statementTimeoutMs: number;
}

const applyStatementTimeout = (holder: SqliteHolder): void => {
  if (holder.connection && holder.extensionMissing === null) {
    (holder.connection.prepare("select statement_timeout(?)") as SqliteStatement).get(holder.statementTimeoutMs);
  }
};

const sqliteConnections = new WeakMap<Knex, SqliteHolder>();

/** The SQLite connection behind a knex instance (one per process), for cheap synchronous pragmas. */
export const sqliteConnectionOf = (knex: Knex): SqliteHandle | undefined => sqliteConnections.get(knex)?.connection;

/** One knex instance (one pool) per process, for SQLite or Postgres. */
export function createKnex(url: string, options: ConnectionOptions = {}): Knex {
  const target = parseDatabaseUrl(url);
  if (target.dialect === "sqlite") {
    if (target.filename !== ":memory:") mkdirSync(dirname(target.filename), { recursive: true });
    const holder: SqliteHolder = { statementTimeoutMs: 0 };
    const knex = knexFactory({
      ...knexLog(options.log),
      client: SqliteClient,
      connection: { filename: target.filename },
      useNullAsDefault: true,
      // better-sqlite3 is synchronous: one connection serves the process without contention.
      pool: {
        min: 1,
        max: 1,
        afterCreate: (connection: SqliteHandle, done: (error: Error | null, connection: SqliteHandle) => void) => {
          connection.pragma("journal_mode = WAL");
          connection.pragma("foreign_keys = ON");
          connection.pragma("busy_timeout = 10000");
          connection.pragma("synchronous = NORMAL");
          // Checkpoints (which sync the database file) every 40 MB of WAL instead of every 4 MB:
          // a quarter less per small write under steady load, at the price of a larger WAL file.
          connection.pragma("wal_autocheckpoint = 10000");
          // A 64 MB page cache instead of 2 MB: the index pages that writes land on stay in memory as
          // tables grow past the default (web-events lost a third of its rate by its fourth round).
          connection.pragma("cache_size = -65536");
          cacheStatements(connection);
          holder.connection = connection;
          holder.extensionMissing = loadStatementTimeout(connection);
          applyStatementTimeout(holder);
          done(null, connection);
        },
      },
    });
    sqliteConnections.set(knex, holder);
    takeTurnsWithTheLoop(knex);
    return knex;
  }
  return knexFactory({
    ...knexLog(options.log),
    client: "pg",
    connection: {
      connectionString: target.connectionString,
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
    },
    ...(options.schema ? { searchPath: [options.schema] } : {}),
    pool: { min: 0, max: options.poolMax ?? 10 },
    acquireConnectionTimeout: 10_000,
  });
}

/**
 * From now on, every statement of the process's SQLite connection stops with SQLITE_INTERRUPT
 * once it has run `ms` (0: no limit), as Postgres's `statement_timeout` does: set after the
 * migrations, which may take longer. Resolves to why statements stay unlimited, or null.
 */
export async function limitSqliteStatements(knex: Knex, ms: number): Promise<string | null> {
  const holder = sqliteConnections.get(knex);
  if (!holder) throw new Error("limitSqliteStatements: not an SQLite connection of createKnex");
  holder.statementTimeoutMs = ms;
  await knex.raw("select 1");
  applyStatementTimeout(holder);
  return ms > 0 ? (holder.extensionMissing ?? null) : null;
}

/** How long queued statements may run back to back before the event loop gets a turn. */
const STATEMENTS_SLICE_MS = 10;

/**
 * better-sqlite3 runs each statement synchronously, and the pool hands its one connection from
 * query to query in promise callbacks: hundreds of queued queries would run back to back without
 * the event loop ever reading a socket. Once statements have run for a slice of time, the next
 * one waits a turn of the loop, so new requests (and /health) get in between; short lookups
 * still run many to a turn.
 */
function takeTurnsWithTheLoop(knex: Knex): void {
  const client = knex.client as { acquireConnection(): Promise<unknown> };
  const acquire = client.acquireConnection.bind(client);
  let sliceStarted = performance.now();
  client.acquireConnection = async () => {
    const connection = await acquire();
    if (performance.now() - sliceStarted > STATEMENTS_SLICE_MS) {
      await nextTurnOfTheLoop();
      sliceStarted = performance.now();
    }
    return connection;
  };
}

/** Queries waiting for a pool connection: the database's own queue, as this process sees it. */
export const pendingQueries = (knex: Knex): number => (knex.client as { pool?: { numPendingAcquires(): number } }).pool?.numPendingAcquires() ?? 0;

export const isPostgres = (knex: Knex): boolean => knex.client.config.client === "pg";
