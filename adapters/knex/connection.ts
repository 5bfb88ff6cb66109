import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import knexFactory from "knex";
import type { Knex } from "knex";
import { parseDatabaseUrl } from "./database-url.js";

export interface ConnectionOptions {
  /** Postgres schema to work in (tests give each run its own); created when missing. */
  readonly schema?: string;
  /** Postgres pool size per process. */
  readonly poolMax?: number;
}

interface SqliteHandle {
  pragma(source: string): unknown;
}

/** One knex instance (one pool) per process, for SQLite or Postgres. */
export function createKnex(url: string, options: ConnectionOptions = {}): Knex {
  const target = parseDatabaseUrl(url);
  if (target.dialect === "sqlite") {
    if (target.filename !== ":memory:") mkdirSync(dirname(target.filename), { recursive: true });
    return knexFactory({
      client: "better-sqlite3",
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
          done(null, connection);
        },
      },
    });
  }
  return knexFactory({
    client: "pg",
    connection: { connectionString: target.connectionString },
    ...(options.schema ? { searchPath: [options.schema] } : {}),
    pool: { min: 0, max: options.poolMax ?? 10 },
    acquireConnectionTimeout: 10_000,
  });
}

export const isPostgres = (knex: Knex): boolean => knex.client.config.client === "pg";
