import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import knexFactory, { type Knex } from "knex";
import { createKnex, type ConnectionOptions } from "../../adapters/knex/connection.js";

/** A fresh, empty database for one test: its own SQLite file or its own Postgres schema. */
export interface TestDatabase {
  readonly url: string;
  readonly schema?: string;
  /** Environment for a child process using this database. */
  readonly env: Record<string, string>;
  drop(): Promise<void>;
}

export interface Dialect {
  readonly name: "sqlite" | "postgres";
  create(): Promise<TestDatabase>;
}

const sqlite: Dialect = {
  name: "sqlite",
  async create() {
    const dir = mkdtempSync(join(tmpdir(), "lifecycle-test-"));
    const url = `sqlite:${join(dir, "test.sqlite")}`;
    return { url, env: { DATABASE_URL: url }, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  },
};

/**
 * Migrating a schema, or dropping one, locks every table and index in one transaction, and Postgres
 * has room for max_locks_per_transaction (64) x max_connections (100) locks in all: a test file
 * whose tests all set up at once ran out ("out of shared memory"). A few at a time per process.
 */
const SCHEMA_WORK_AT_ONCE = 2;
let schemaWorkRunning = 0;
const schemaWorkWaiting: Array<() => void> = [];

export async function schemaWork<T>(work: () => Promise<T>): Promise<T> {
  if (schemaWorkRunning < SCHEMA_WORK_AT_ONCE) schemaWorkRunning += 1;
  else await new Promise<void>((resolve) => schemaWorkWaiting.push(resolve));
  try {
    return await work();
  } finally {
    // The slot passes straight to the next in line, so no newcomer slips in between.
    const next = schemaWorkWaiting.shift();
    if (next) next();
    else schemaWorkRunning -= 1;
  }
}

/**
 * Postgres through TEST_DATABASE_URL: each test gets a schema of its own, reached through
 * `?options=-c search_path=...` so that child processes land in it too.
 */
const postgres = (baseUrl: string): Dialect => ({
  name: "postgres",
  async create() {
    const schema = `t_${randomBytes(6).toString("hex")}`;
    const admin = knexFactory({ client: "pg", connection: baseUrl, pool: { min: 0, max: 1 } });
    await admin.raw("create schema ??", [schema]);
    await admin.destroy();
    const url = withSearchPath(baseUrl, schema);
    return {
      url,
      schema,
      env: { DATABASE_URL: url },
      async drop() {
        await schemaWork(async () => {
          const cleaner = knexFactory({ client: "pg", connection: baseUrl, pool: { min: 0, max: 1 } });
          await cleaner.raw("drop schema if exists ?? cascade", [schema]);
          await cleaner.destroy();
        });
      },
    };
  },
});

export function withSearchPath(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set("options", `-c search_path=${schema}`);
  return parsed.toString();
}

/** SQLite always; Postgres too when TEST_DATABASE_URL is set (CI always sets it). */
export function dialects(): Dialect[] {
  const url = process.env.TEST_DATABASE_URL;
  return url ? [sqlite, postgres(url)] : [sqlite];
}

/** A fresh database of `dialect` with its own knex pool, dropped after the test. */
export async function openTestKnex(t: { teardown(fn: () => Promise<void>): void }, dialect: Dialect, options: ConnectionOptions = {}): Promise<Knex> {
  const database = await dialect.create();
  const knex = createKnex(database.url, options);
  t.teardown(async () => {
    await knex.destroy();
    await database.drop();
  });
  return knex;
}
