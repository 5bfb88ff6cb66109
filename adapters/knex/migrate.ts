import type { Knex } from "knex";
import { isPostgres } from "./connection.js";
import { migrationSource } from "./migrations/index.js";

const config: Knex.MigratorConfig = { migrationSource, tableName: "knex_migrations" };
const RETRY_MS = 100;
const GIVE_UP_MS = 60_000;
/** A SQLite migration takes well under a second: a knex lock older than this was left by a killed process. */
const STALE_LOCK_MS = 15_000;

/** Knex's own lock and table creation race when processes start together: these errors mean "try again". */
const isRace = (error: unknown): boolean =>
  /already locked|already exists|duplicate key|SQLITE_BUSY|database is locked|UNIQUE constraint failed/i.test(String((error as Error)?.message ?? error));

/**
 * The migrations this version has that the database has not applied, in order, without
 * changing anything (knex's own listing would create its bookkeeping table).
 */
export async function pendingMigrations(knex: Knex): Promise<string[]> {
  const known = (await migrationSource.getMigrations([])).map((migration) => migrationSource.getMigrationName(migration));
  const table = config.tableName!;
  const applied = new Set<string>((await knex.schema.hasTable(table)) ? await knex(table).pluck("name") : []);
  return known.filter((name) => !applied.has(name));
}

/**
 * Brings the schema up to date; safe from several processes at once. On Postgres an advisory
 * lock serialises the processes (so a stale knex lock left by a killed process can be freed);
 * on SQLite the file's write lock and knex's lock table do, with retries.
 */
export async function migrateToLatest(knex: Knex): Promise<string[]> {
  if (isPostgres(knex)) {
    return knex.transaction(async (trx) => {
      await trx.raw("select pg_advisory_xact_lock(hashtext(current_schema() || ':lifecycle-migrations'))");
      if (await knex.schema.hasTable(`${config.tableName}_lock`)) await knex.migrate.forceFreeMigrationsLock(config);
      const [, applied] = (await knex.migrate.latest(config)) as [number, string[]];
      return applied;
    });
  }
  const started = Date.now();
  for (;;) {
    try {
      const [, applied] = (await knex.migrate.latest(config)) as [number, string[]];
      return applied;
    } catch (error) {
      const waited = Date.now() - started;
      if (!isRace(error) || waited > GIVE_UP_MS) throw error;
      if (waited > STALE_LOCK_MS && /already locked/i.test(String(error))) await knex.migrate.forceFreeMigrationsLock(config);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS + Math.random() * RETRY_MS));
    }
  }
}
