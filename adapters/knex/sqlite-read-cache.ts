import type { Knex } from "knex";
import { sqliteConnectionOf, sqliteDataVersion } from "./connection.js";

const MAX_ENTRIES = 10_000;
const READ_ONLY = /^\s*(select|pragma|with\s[^;]*\)\s*select)\b/i;
/** Statements that change nothing themselves: the writes inside a transaction are seen one by one. */
const TRANSACTION_CONTROL = /^\s*(begin|commit|rollback|savepoint|release)\b/i;
/** The table of a plain write as knex writes it; any other statement (a raw one, a schema change) may change anything. */
const WRITTEN_TABLE = /^\s*(?:insert(?:\s+or\s+\w+)?\s+into|replace\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+[`"]?(\w+)[`"]?[\s(]/i;

interface Entry {
  readonly value: unknown;
  readonly tables: readonly string[];
}

/**
 * Keeps hot reads (the key lookup behind every request) in memory on SQLite, and forgets them
 * the moment what they read may have changed: on a write through this process's knex to a table
 * they read (any statement whose table is not plain forgets every read), and when another process
 * commits (SQLite's `PRAGMA data_version` moves). A revoked key is therefore refused on its very
 * next request, as without the cache. On Postgres it reads through: every server must see every
 * other's changes at once.
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

  /** In the order they were read: past the bound the oldest goes. */
  private readonly entries = new Map<string, Entry>();
  /** The keys of the entries read from each table. */
  private readonly readers = new Map<string, Set<string>>();
  private readonly harmless: RegExp[] = [];
  private dataVersion: unknown = undefined;
  /** True until the end of this event-loop turn once the version has been read in it. */
  private versionChecked = false;
  /** Moves on every forgetting of everything. */
  private everything = 0;
  /** Moves on every write to a table, by table. */
  private readonly tableWrites = new Map<string, number>();

  private constructor(private readonly knex: Knex) {
    knex.on("query", (query: { sql?: string }) => this.noticed(query.sql));
  }

  /** Writes matching `pattern` change nothing any cached read depends on (a column no cached read uses), so they keep the cache. */
  ignoreWrites(pattern: RegExp): void {
    if (!this.harmless.some((known) => known.source === pattern.source)) this.harmless.push(pattern);
  }

  /** The value cached under `key`, or `load`'s, kept until a write to one of `tables` (the tables `load` reads). */
  async read<T>(key: string, tables: readonly string[], load: () => Promise<T>): Promise<T> {
    const connection = sqliteConnectionOf(this.knex);
    if (!connection) return load();
    this.checkDataVersion(connection);
    const known = this.entries.get(key);
    if (known) return known.value as T;
    const before = this.generation(tables);
    const value = await load();
    // Only what was read with nothing it read changing meanwhile may be kept.
    if (this.generation(tables) === before) {
      if (this.entries.size >= MAX_ENTRIES) this.forgetOldest();
      this.entries.set(key, { value, tables });
      for (const table of tables) {
        const keys = this.readers.get(table);
        if (keys) keys.add(key);
        else this.readers.set(table, new Set([key]));
      }
    }
    return value;
  }

  private noticed(sql: string | undefined): void {
    if (!sql) return this.forgetEverything();
    if (READ_ONLY.test(sql) || TRANSACTION_CONTROL.test(sql) || this.harmless.some((pattern) => pattern.test(sql))) return;
    const table = WRITTEN_TABLE.exec(sql)?.[1];
    if (table === undefined) return this.forgetEverything();
    this.tableWrites.set(table, (this.tableWrites.get(table) ?? 0) + 1);
    const keys = this.readers.get(table);
    if (!keys) return;
    this.readers.delete(table);
    for (const key of keys) this.forget(key);
  }

  private generation(tables: readonly string[]): string {
    return `${this.everything}:${tables.map((table) => this.tableWrites.get(table) ?? 0).join(":")}`;
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
      this.forgetEverything();
      this.dataVersion = version;
    }
  }

  private forgetOldest(): void {
    this.forget(this.entries.keys().next().value!);
  }

  /** One read, out of the lists of every table it read too. */
  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const table of entry.tables) this.readers.get(table)?.delete(key);
  }

  private forgetEverything(): void {
    this.everything += 1;
    this.entries.clear();
    this.readers.clear();
  }
}
