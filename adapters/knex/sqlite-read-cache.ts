import type { Knex } from "knex";
import { sqliteConnectionOf, sqliteDataVersion } from "./connection.js";

const MAX_ENTRIES = 10_000;
const READ_ONLY = /^\s*(select|pragma|with\s[^;]*\)\s*select)\b/i;

/**
 * Keeps hot reads (the key lookup behind every request) in memory on SQLite, and forgets them
 * the moment the database may have changed: on any write through this process's knex, and
 * when another process commits (SQLite's `PRAGMA data_version` moves). A revoked key is
 * therefore refused on its very next request, as without the cache. On Postgres it reads
 * through: every server must see every other's changes at once.
 */
export class SqliteReadCache {
  private static readonly instances = new WeakMap<Knex, SqliteReadCache>();

  /** One cache per knex instance (per process), shared by every repository. */
  static for(knex: Knex): SqliteReadCache {
    let cache = SqliteReadCache.instances.get(knex);
    if (!cache) {
      cache = new SqliteReadCache(knex);
      SqliteReadCache.instances.set(knex, cache);
    }
    return cache;
  }

  private readonly entries = new Map<string, unknown>();
  private readonly harmless: RegExp[] = [];
  private dataVersion: unknown = undefined;
  /** True until the end of this event-loop turn once the version has been read in it. */
  private versionChecked = false;
  private writes = 0;

  private constructor(private readonly knex: Knex) {
    knex.on("query", (query: { sql?: string }) => {
      if (!query.sql || (!READ_ONLY.test(query.sql) && !this.harmless.some((pattern) => pattern.test(query.sql!)))) this.forget();
    });
  }

  /** Writes matching `pattern` change nothing any cached read depends on, so they keep the cache. */
  ignoreWrites(pattern: RegExp): void {
    if (!this.harmless.some((known) => known.source === pattern.source)) this.harmless.push(pattern);
  }

  async read<T>(key: string, load: () => Promise<T>): Promise<T> {
    const connection = sqliteConnectionOf(this.knex);
    if (!connection) return load();
    this.checkDataVersion(connection);
    const version = this.dataVersion;
    if (this.entries.has(key)) return this.entries.get(key) as T;
    const writesBefore = this.writes;
    const value = await load();
    // Only what was read with nothing changing meanwhile may be kept.
    if (this.writes === writesBefore && this.dataVersion === version) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(key, value);
    }
    return value;
  }

  /**
   * Another process's commit shows as a new data_version. Reading it once per event-loop turn
   * is enough: requests handled in the same turn run concurrently with that commit anyway, and
   * under load a turn serves many requests.
   */
  private checkDataVersion(connection: Parameters<typeof sqliteDataVersion>[0]): void {
    if (this.versionChecked) return;
    this.versionChecked = true;
    setImmediate(() => {
      this.versionChecked = false;
    });
    const version = sqliteDataVersion(connection);
    if (version !== this.dataVersion) {
      this.forget();
      this.dataVersion = version;
    }
  }

  private forget(): void {
    this.writes += 1;
    this.entries.clear();
  }
}
