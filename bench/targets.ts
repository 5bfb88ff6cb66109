import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import knexFactory, { type Knex } from "knex";

/** A fresh database for one benchmark run, and how to get rid of it afterwards. */
export interface Target {
  readonly url: string;
  drop(): Promise<void>;
}

/** A SQLite file in a temporary directory. */
export function sqliteTarget(): Target {
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  return { url: `sqlite:${join(dir, "bench.sqlite")}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** A Postgres schema of its own (`bench_<random>`), reached through `?options=-c search_path=...`. */
export async function postgresTarget(label: string, baseUrl: string): Promise<Target> {
  const schema = `bench_${randomBytes(6).toString("hex")}`;
  const admin = (): Knex => knexFactory({ client: "pg", connection: baseUrl, pool: { min: 0, max: 1 } });
  const creator = admin();
  try {
    await creator.raw("create schema ??", [schema]);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`bench ${label}: cannot create a schema at ${baseUrl.replace(/(\/\/[^:/@]+:)[^@]*@/, "$1***@")} (set BENCH_DATABASE_URL): ${reason}`, {
      cause: error,
    });
  } finally {
    await creator.destroy();
  }
  const url = new URL(baseUrl);
  url.searchParams.set("options", `-c search_path=${schema}`);
  return {
    url: url.toString(),
    async drop() {
      const cleaner = admin();
      try {
        await cleaner.raw("drop schema if exists ?? cascade", [schema]);
      } finally {
        await cleaner.destroy();
      }
    },
  };
}
