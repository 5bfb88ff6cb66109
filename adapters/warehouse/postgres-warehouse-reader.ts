import { isIP } from "node:net";
import type { ConnectionOptions } from "node:tls";
import pg from "pg";
import type { AttributeValue } from "../../core/subscribers/model.js";
import { parseWarehouseUrl, type PostgresTarget } from "../../core/warehouse/connection-url.js";
import { WarehouseError, type WarehouseRead, type WarehouseRow } from "../../core/warehouse/ports.js";
import { resolveDestination } from "./public-address.js";
import { describeQuery, wrappedRead } from "./wrapped-query.js";

/** How long connecting may take, on top of each statement's timeout. */
const CONNECT_TIMEOUT_MS = 15_000;

const TYPES = { date: 1082, time: 1083, timestamp: 1114, timestamptz: 1184, interval: 1186, timetz: 1266, int8: 20, numeric: 1700 } as const;
/** Date and time types stay the text Postgres writes: the cursor goes back to it exactly (microseconds included). */
const RAW_TEXT = new Set<number>([TYPES.date, TYPES.time, TYPES.timestamp, TYPES.timestamptz, TYPES.interval, TYPES.timetz]);
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    RAW_TEXT.has(oid) ? (value: string) => value : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** `2026-01-02 03:04:05.123456+00` (the session is in UTC) -> `2026-01-02T03:04:05.123Z`. */
function isoTimestamp(text: string): string {
  const match = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d+))?(?:\+00)?$/.exec(text);
  return match ? `${match[1]}T${match[2]}.${(match[3] ?? "").padEnd(3, "0").slice(0, 3)}Z` : text;
}

/** A column's value as JSON, for the mapping. */
function toJson(value: unknown, typeId: number): AttributeValue {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") {
    if (typeId === TYPES.timestamptz || typeId === TYPES.timestamp) return isoTimestamp(value);
    if (typeId === TYPES.int8) return Number.isSafeInteger(Number(value)) ? Number(value) : value;
    if (typeId === TYPES.numeric) return Number.isFinite(Number(value)) ? Number(value) : value;
    return value;
  }
  if (typeof value === "number" || typeof value === "boolean") return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Buffer.isBuffer(value)) return value.toString("base64");
  if (Array.isArray(value)) return value.map((item) => toJson(item, 0));
  if (typeof value === "object") return value as AttributeValue;
  return String(value);
}

/** The cursor column's value as the text Postgres compares it with. */
function cursorText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === "string") return value;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

/** TLS as libpq's sslmode says; the server name is the URL's host even though the socket goes to the checked address. */
function sslOptions(target: PostgresTarget): false | ConnectionOptions {
  const servername = isIP(target.host) ? undefined : target.host;
  const named = servername ? { servername } : {};
  switch (target.sslMode) {
    case null:
    case "disable":
      return false;
    case "no-verify":
    case "require":
      return { ...named, rejectUnauthorized: false };
    case "verify-ca":
      return { ...named, rejectUnauthorized: true, checkServerIdentity: () => undefined };
    case "verify-full":
      return { ...named, rejectUnauthorized: true };
  }
}

/** SQLSTATE classes that mean the connection, not the query, failed (08: connection exception, 28: authorization, 3D: no such database, 57P0x: shutdown). */
const isConnectionState = (code: string) => /^(08|28|3D|57P0)/.test(code);

function toWarehouseError(error: unknown, statementTimeoutMs?: number): WarehouseError {
  if (error instanceof WarehouseError) return error;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === "string" && message ? message.split("\n")[0]! : "unknown error";
  if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) {
    if (code === "57014" && statementTimeoutMs !== undefined) {
      return new WarehouseError("query", `the query ran longer than the statement timeout of ${statementTimeoutMs / 1000} s (${text})`);
    }
    return new WarehouseError(isConnectionState(code) ? "connection" : "query", text);
  }
  return new WarehouseError("connection", text);
}

/**
 * Reads a Postgres warehouse with node-postgres: one connection per call, to the address
 * checked when the host was resolved; every statement inside a READ ONLY, REPEATABLE READ
 * transaction with a statement timeout; rows streamed through a server-side cursor.
 */
export class PostgresWarehouseReader {
  constructor(private readonly allowPrivateDestinations: boolean) {}

  async check(url: string, timeoutMs: number): Promise<void> {
    await this.withTransaction(url, timeoutMs, (client) => client.query("select 1"));
  }

  async columns(url: string, query: string, timeoutMs: number): Promise<string[]> {
    const result = await this.withTransaction(url, timeoutMs, (client) => client.query(describeQuery(query)));
    return result.fields.map((field) => field.name);
  }

  async *read(url: string, read: WarehouseRead): AsyncGenerator<readonly WarehouseRow[]> {
    const client = await this.connect(url);
    try {
      await this.begin(client, read.statementTimeoutMs);
      const { sql, values } = wrappedRead(read, "$1");
      await client.query(`declare warehouse_rows no scroll cursor for ${sql}`, values).catch((error: unknown) => {
        throw toWarehouseError(error, read.statementTimeoutMs);
      });
      for (;;) {
        const result = await client.query(`fetch ${read.batchSize} from warehouse_rows`).catch((error: unknown) => {
          throw toWarehouseError(error, read.statementTimeoutMs);
        });
        if (result.rows.length > 0) {
          yield result.rows.map((row: Record<string, unknown>) => {
            const values: Record<string, AttributeValue> = {};
            for (const field of result.fields) values[field.name] = toJson(row[field.name], field.dataTypeID);
            return { values, cursor: read.cursorColumn === null ? null : cursorText(row[read.cursorColumn]) };
          });
        }
        if (result.rows.length < read.batchSize) break;
      }
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private async withTransaction<T>(url: string, timeoutMs: number, work: (client: pg.Client) => Promise<T>): Promise<T> {
    const client = await this.connect(url);
    try {
      await this.begin(client, timeoutMs);
      return await work(client).catch((error: unknown) => {
        throw toWarehouseError(error, timeoutMs);
      });
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  private async begin(client: pg.Client, statementTimeoutMs: number): Promise<void> {
    try {
      // Read only whatever the role may do: a write in the query fails with 25006.
      await client.query("begin transaction isolation level repeatable read read only");
      await client.query(`set local statement_timeout = ${Math.max(1, Math.floor(statementTimeoutMs))}`);
      await client.query("set local idle_in_transaction_session_timeout = 600000");
      await client.query("set local timezone = 'UTC'");
      await client.query("set local datestyle = 'ISO, YMD'");
    } catch (error) {
      throw toWarehouseError(error);
    }
  }

  private async connect(url: string): Promise<pg.Client> {
    const parsed = parseWarehouseUrl("postgres", url);
    if (!parsed.ok || parsed.target.kind !== "postgres") throw new WarehouseError("connection", parsed.ok ? "not a postgres URL" : parsed.reason);
    const target = parsed.target;
    const destination = await resolveDestination(target.host, this.allowPrivateDestinations);
    if (!destination.ok) throw new WarehouseError("connection", destination.reason);
    const client = new pg.Client({
      host: destination.address,
      port: target.port,
      user: target.user,
      database: target.database,
      ...(target.password !== null ? { password: target.password } : {}),
      ssl: sslOptions(target),
      ...(target.options ? { options: target.options } : {}),
      application_name: target.applicationName ?? "lifecycle-warehouse-sync",
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      types,
    });
    // A connection lost between two statements is reported by the next statement.
    client.on("error", () => undefined);
    try {
      await client.connect();
    } catch (error) {
      await client.end().catch(() => undefined);
      throw toWarehouseError(error);
    }
    return client;
  }
}
