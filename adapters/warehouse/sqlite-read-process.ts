import { createRequire } from "node:module";

/**
 * Runs one read of a SQLite warehouse file in a child process, so that the caller can stop a
 * statement that runs too long: better-sqlite3 is synchronous and SQLite's step runs in native
 * code, which only killing the process interrupts. The file is opened read-only and
 * `query_only`. The first message is the request; each later one asks for the next batch.
 */

interface Statement {
  readonly reader: boolean;
  columns(): Array<{ name: string }>;
  iterate(...params: unknown[]): IterableIterator<Record<string, unknown>>;
  get(...params: unknown[]): unknown;
}
interface SqliteDatabase {
  pragma(source: string): unknown;
  prepare(source: string): Statement;
  close(): void;
}
type DatabaseConstructor = new (path: string, options: { readonly: boolean; fileMustExist: boolean }) => SqliteDatabase;

export interface SqliteReadRequest {
  readonly mode: "check" | "columns" | "rows";
  readonly path: string;
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly batchSize: number;
}

export type SqliteReadMessage =
  /** The process is up and has the request: the statement's time starts now. */
  | { readonly type: "ready" }
  | { readonly type: "columns"; readonly columns: string[] }
  | { readonly type: "rows"; readonly rows: Record<string, unknown>[]; readonly done: boolean }
  | { readonly type: "error"; readonly message: string };

const post = (message: SqliteReadMessage) => process.send!(message);
const failure = (error: unknown): SqliteReadMessage => ({ type: "error", message: error instanceof Error ? error.message : String(error) });

/** The next batch of rows (the last one says `done`). */
function nextBatch(rows: IterableIterator<Record<string, unknown>>, batchSize: number): SqliteReadMessage {
  const batch: Record<string, unknown>[] = [];
  for (;;) {
    const next = rows.next();
    if (next.done) return { type: "rows", rows: batch, done: true };
    batch.push(next.value);
    if (batch.length >= batchSize) return { type: "rows", rows: batch, done: false };
  }
}

function serve(request: SqliteReadRequest): void {
  try {
    const Database = createRequire(import.meta.url)("better-sqlite3") as DatabaseConstructor;
    const db = new Database(request.path, { readonly: true, fileMustExist: true });
    db.pragma("query_only = ON");
    const statement = db.prepare(request.sql);
    if (!statement.reader) throw new Error("only a query that returns rows can be run");
    if (request.mode !== "rows") {
      if (request.mode === "check") statement.get();
      post({ type: "columns", columns: statement.columns().map((column) => column.name) });
      return;
    }
    const rows = statement.iterate(...request.params);
    process.on("message", () => {
      try {
        post(nextBatch(rows, request.batchSize));
      } catch (error) {
        post(failure(error));
      }
    });
  } catch (error) {
    post(failure(error));
  }
}

process.once("message", (request: SqliteReadRequest) => {
  post({ type: "ready" });
  serve(request);
});
// The parent gone (or done with this read), nothing is left to do.
process.on("disconnect", () => process.exit(0));
