import { createRequire } from "node:module";
import type { Knex } from "knex";

interface CompiledBuilder {
  _single: { skipBinding?: Record<string, boolean> };
}

const require = createRequire(import.meta.url);
const BetterSqlite3Client = require("knex/lib/dialects/better-sqlite3/index.js") as typeof Knex.Client;
// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the client as `this`
const compilerOf = BetterSqlite3Client.prototype.queryCompiler as (this: Knex.Client, builder: CompiledBuilder, formatter?: unknown) => unknown;
// eslint-disable-next-line @typescript-eslint/unbound-method -- called below with the client as `this`
const queryOf = (BetterSqlite3Client.prototype as unknown as { _query(connection: unknown, query: unknown): Promise<unknown> })._query;

/**
 * knex's better-sqlite3 client with every LIMIT written into the statement's text. SQLite
 * prepares a statement whose LIMIT is a bound parameter again on each run (its planner may
 * choose by the value), which costs more than a lookup by a unique key: `first()` paid it on
 * every call although the cached statement was reused. knex has already made the value an
 * integer, so the text stays safe; OFFSET stays bound, as binding it costs nothing.
 */
export class SqliteClient extends BetterSqlite3Client {
  override queryCompiler(builder: CompiledBuilder, formatter?: unknown): unknown {
    builder._single.skipBinding = { ...builder._single.skipBinding, limit: true };
    return compilerOf.call(this, builder, formatter);
  }

  /**
   * SQLite rolls a transaction back by itself when a statement in it is stopped (the statement
   * time limit, a full disk): the ROLLBACK knex sends next would fail ("no transaction is
   * active") and the transaction would reject with that instead of the reason. It has nothing
   * left to undo, so it is skipped.
   */
  _query(connection: { inTransaction: boolean }, query: { sql: string }): Promise<unknown> {
    // knex writes both of its rollbacks so ("ROLLBACK", "ROLLBACK TO SAVEPOINT ..."); the cheap test goes first, on every query.
    if (query.sql.startsWith("ROLLBACK") && !connection.inTransaction) return Promise.resolve(query);
    return queryOf.call(this, connection, query);
  }
}
