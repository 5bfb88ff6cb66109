import knexFactory from "knex";
import type { Knex } from "knex";
import { isPostgres, sqliteConnectionOf } from "./connection.js";
import { token } from "../../core/shared/token.js";

/** Whether the database answers, asked without waiting behind the queries already queued for the pool. */
export interface DatabaseProbe {
  /** Resolves when the database answered; rejects with the reason otherwise. */
  check(): Promise<void>;
  close(): Promise<void>;
}
export const DatabaseProbe = token<DatabaseProbe>("lifecycle.DatabaseProbe");

/** A probe answers within this long, or the database counts as down. */
const PROBE_TIMEOUT_MS = 3_000;

/**
 * SQLite: a statement on the process's one connection, directly (better-sqlite3 is synchronous,
 * so nothing can be half-way on it). Postgres: a connection of its own, opened on first use.
 */
export function createDatabaseProbe(knex: Knex): DatabaseProbe {
  if (!isPostgres(knex)) {
    return {
      async check() {
        const connection = sqliteConnectionOf(knex);
        if (connection) (connection.prepare("select 1") as { get(): unknown }).get();
        else await knex.raw("select 1");
      },
      close: async () => undefined,
    };
  }
  let probe: Knex | undefined;
  return {
    async check() {
      probe ??= knexFactory({
        client: "pg",
        connection: { ...(knex.client.config.connection as object), statement_timeout: PROBE_TIMEOUT_MS, connectionTimeoutMillis: PROBE_TIMEOUT_MS },
        pool: { min: 0, max: 1 },
        acquireConnectionTimeout: PROBE_TIMEOUT_MS,
      });
      await probe.raw("select 1");
    },
    close: async () => {
      await probe?.destroy();
    },
  };
}
