import type { ConnectionKind } from "./model.js";

/**
 * Warehouse connection URLs: `postgres://user:password@host:port/database?sslmode=...` and
 * `sqlite:<path>`. Parsed here, once, for the API's checks and for the adapters that connect.
 */

export const SSL_MODES = ["disable", "no-verify", "require", "verify-ca", "verify-full"] as const;
export type SslMode = (typeof SSL_MODES)[number];

/** The query parameters a Postgres URL may carry; anything else (e.g. `password=`) is refused. */
const POSTGRES_PARAMETERS = new Set(["sslmode", "options", "application_name"]);

export interface PostgresTarget {
  readonly kind: "postgres";
  /** Without the brackets of an IPv6 literal. */
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly user: string;
  readonly password: string | null;
  readonly sslMode: SslMode | null;
  /** Startup options, e.g. `-c search_path=analytics`. */
  readonly options: string | null;
  readonly applicationName: string | null;
}

export interface SqliteTarget {
  readonly kind: "sqlite";
  readonly path: string;
}

export type WarehouseTarget = PostgresTarget | SqliteTarget;

export type ParsedUrl = { readonly ok: true; readonly target: WarehouseTarget } | { readonly ok: false; readonly reason: string };

const refuse = (reason: string): ParsedUrl => ({ ok: false, reason });

function decodePart(part: string): string | null {
  try {
    return decodeURIComponent(part);
  } catch {
    return null;
  }
}

/** Reads a connection URL of the given kind, or says what is wrong with it. */
export function parseWarehouseUrl(kind: ConnectionKind, url: string): ParsedUrl {
  if (kind === "sqlite") {
    if (!url.startsWith("sqlite:")) return refuse("A sqlite connection URL looks like sqlite:/path/to/warehouse.sqlite");
    const path = url.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "");
    if (path.trim() === "" || path.includes("\0")) return refuse("A sqlite connection URL needs the path of the database file");
    return { ok: true, target: { kind: "sqlite", path } };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse("url is not a valid URL (postgres://user:password@host:5432/database)");
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:") return refuse("A postgres connection URL starts with postgres:// or postgresql://");
  const host = parsed.hostname.replace(/^\[(.*)\]$/, "$1");
  if (!host) return refuse("The connection URL has no host");
  const port = parsed.port ? Number(parsed.port) : 5432;
  const user = decodePart(parsed.username);
  if (!user) return refuse("The connection URL needs a user name (postgres://user:password@host/database)");
  const password = parsed.password ? decodePart(parsed.password) : null;
  if (parsed.password && password === null) return refuse("The password of the connection URL is not validly encoded");
  const database = decodePart(parsed.pathname.replace(/^\//, ""));
  if (!database) return refuse("The connection URL needs a database name (postgres://user:password@host/database)");
  for (const key of parsed.searchParams.keys()) {
    if (!POSTGRES_PARAMETERS.has(key))
      return refuse(`The connection URL parameter '${key}' is not supported (allowed: ${[...POSTGRES_PARAMETERS].join(", ")})`);
  }
  const sslMode = parsed.searchParams.get("sslmode");
  if (sslMode !== null && !(SSL_MODES as readonly string[]).includes(sslMode)) return refuse(`sslmode must be one of: ${SSL_MODES.join(", ")}`);
  if (parsed.hash) return refuse("The connection URL must not have a fragment");
  return {
    ok: true,
    target: {
      kind: "postgres",
      host,
      port,
      database,
      user,
      password,
      sslMode: sslMode as SslMode | null,
      options: parsed.searchParams.get("options"),
      applicationName: parsed.searchParams.get("application_name"),
    },
  };
}

export const MASK = "****";

/** The URL as it may be shown and stored in plain text: the password replaced by `****`. */
export function maskUrl(kind: ConnectionKind, url: string): string {
  if (kind === "sqlite") return url;
  const parsed = new URL(url);
  if (parsed.password) parsed.password = MASK;
  return parsed.toString();
}
