import { fork, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { AttributeValue } from "../../core/subscribers/model.js";
import { parseWarehouseUrl } from "../../core/warehouse/connection-url.js";
import { WarehouseError, type WarehouseRead, type WarehouseRow } from "../../core/warehouse/ports.js";
import type { SqliteReadMessage, SqliteReadRequest } from "./sqlite-read-process.js";
import { describeQuery, wrappedRead } from "./wrapped-query.js";

const READ_PROCESS = fileURLToPath(new URL("./sqlite-read-process.js", import.meta.url));

function toJson(value: unknown): AttributeValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") return value;
  if (typeof value === "bigint") return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString("base64");
  return String(value);
}

/** A cursor saved as text goes back as a number when it is one, so that numeric columns compare numerically. */
const cursorParameter = (text: string): string | number => (/^-?\d+(\.\d+)?$/.test(text) && Number.isFinite(Number(text)) ? Number(text) : text);

/** How long the reader process may take to start, apart from the statement's own timeout (a busy machine starts processes slowly). */
const START_TIMEOUT_MS = 60_000;

/**
 * One read in a child process: each `next` asks for a batch, and a batch late past the timeout
 * kills the process. The timeout counts from the moment the process is up, not from the fork.
 */
class SqliteRead {
  private readonly child: ChildProcess;
  private readonly messages: SqliteReadMessage[] = [];
  private waiting: ((message: SqliteReadMessage) => void) | null = null;
  private readonly started: Promise<void>;

  constructor(request: SqliteReadRequest) {
    this.child = fork(READ_PROCESS, [], { serialization: "advanced", stdio: ["ignore", "ignore", "ignore", "ipc"] });
    let ready: () => void = () => {};
    this.started = new Promise((resolvePromise) => (ready = resolvePromise));
    const deliver = (message: SqliteReadMessage) => {
      if (message.type === "ready") return ready();
      // A process that stopped before it was up fails its first read at once.
      if (message.type === "error") ready();
      const waiting = this.waiting;
      this.waiting = null;
      if (waiting) waiting(message);
      else this.messages.push(message);
    };
    this.child.on("message", (message) => deliver(message as SqliteReadMessage));
    this.child.on("error", (error) => deliver({ type: "error", message: error.message }));
    this.child.on("exit", (code, signal) => deliver({ type: "error", message: `the reader stopped (${signal ?? code})` }));
    this.child.send(request);
  }

  async next(timeoutMs: number, ask: boolean): Promise<SqliteReadMessage> {
    await this.untilStarted();
    if (ask && this.child.connected) this.child.send("next");
    const queued = this.messages.shift();
    if (queued) return queued;
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        this.close();
        reject(new WarehouseError("query", `the query ran longer than the statement timeout of ${timeoutMs / 1000} s`));
      }, timeoutMs);
      this.waiting = (message) => {
        clearTimeout(timer);
        resolvePromise(message);
      };
    });
  }

  private async untilStarted(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.close();
        reject(new WarehouseError("connection", `the reader process did not start within ${START_TIMEOUT_MS / 1000} s`));
      }, START_TIMEOUT_MS);
    });
    try {
      await Promise.race([this.started, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  close(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGKILL");
  }
}

/**
 * Reads a SQLite warehouse file (accepted only with ALLOW_PRIVATE_DESTINATIONS: it is a file on
 * this server), opened read-only, in a child process that the statement timeout can stop.
 */
export class SqliteWarehouseReader {
  async check(url: string, timeoutMs: number): Promise<void> {
    await this.once(url, "check", "select 1", timeoutMs);
  }

  async columns(url: string, query: string, timeoutMs: number): Promise<string[]> {
    return this.once(url, "columns", describeQuery(query), timeoutMs);
  }

  async *read(url: string, read: WarehouseRead): AsyncGenerator<readonly WarehouseRow[]> {
    const { sql, values } = wrappedRead(read, "?");
    const reading = new SqliteRead({ mode: "rows", path: pathOf(url), sql, params: values.map(cursorParameter), batchSize: read.batchSize });
    try {
      for (;;) {
        const message = await reading.next(read.statementTimeoutMs, true);
        if (message.type === "error") throw new WarehouseError("query", message.message);
        if (message.type !== "rows") throw new WarehouseError("query", "unexpected answer from the reader");
        if (message.rows.length > 0) {
          yield message.rows.map((row) => {
            const rowValues: Record<string, AttributeValue> = {};
            for (const [name, value] of Object.entries(row)) rowValues[name] = toJson(value);
            const cursor = read.cursorColumn === null ? null : row[read.cursorColumn];
            return { values: rowValues, cursor: cursor === null || cursor === undefined ? null : String(cursor) };
          });
        }
        if (message.done) return;
      }
    } finally {
      reading.close();
    }
  }

  private async once(url: string, mode: "check" | "columns", sql: string, timeoutMs: number): Promise<string[]> {
    const reading = new SqliteRead({ mode, path: pathOf(url), sql, params: [], batchSize: 1 });
    try {
      const message = await reading.next(timeoutMs, false);
      if (message.type === "error")
        throw new WarehouseError(/unable to open|no such file|not a database/i.test(message.message) ? "connection" : "query", message.message);
      if (message.type !== "columns") throw new WarehouseError("query", "unexpected answer from the reader");
      return message.columns;
    } finally {
      reading.close();
    }
  }
}

function pathOf(url: string): string {
  const parsed = parseWarehouseUrl("sqlite", url);
  if (!parsed.ok || parsed.target.kind !== "sqlite") throw new WarehouseError("connection", parsed.ok ? "not a sqlite URL" : parsed.reason);
  return resolve(parsed.target.path);
}
