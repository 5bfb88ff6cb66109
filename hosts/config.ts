import { DEFAULT_CAMPAIGN_SENDS, type CampaignSendSettings } from "../core/campaigns/send-ports.js";
import * as t from "io-ts";
import { isLeft } from "fp-ts/lib/Either.js";
import ipaddr from "ipaddr.js";
import { BooleanFromString, HttpUrl, IntegerFromString, integerBetween, reportErrors } from "../core/shared/codecs.js";
import { DEFAULT_RETENTION, type RetentionPolicy } from "../core/retention/policy.js";
import { DEFAULT_CAPACITY, type Capacity } from "./capacity.js";

/** Express's `trust proxy`: off, on (trust every hop), a hop count, or the proxies' addresses/CIDRs. */
export type TrustProxy = boolean | number | readonly string[];

/** The environment of shared/CONTRACTS.md, decoded once; flags of the same meaning override it. */
export interface AppConfig {
  readonly databaseUrl: string;
  readonly port: number;
  readonly host: string;
  readonly baseUrl: string;
  /** Base64 of 32 bytes, when given; otherwise it is generated into ./data/secret.key (hosts/secret-key.ts). */
  readonly secretKey: string | undefined;
  readonly mailUrl: string;
  readonly redisUrl: string | undefined;
  readonly allowPrivateDestinations: boolean;
  /** TRANSLATION_URL and TRANSLATION_API_KEY: a LibreTranslate-compatible service for template localization syncs; unset: none. */
  readonly translation: { readonly url: string; readonly apiKey: string | undefined } | undefined;
  /** CAMPAIGN_BATCH_SIZE, CAMPAIGN_SEND_RATE_PER_MINUTE (each company) and CAMPAIGN_SERVER_SEND_RATE_PER_MINUTE (all together); unset rates: none. */
  readonly campaignSends: CampaignSendSettings;
  readonly logLevel: string;
  readonly trustProxy: TrustProxy;
  readonly retention: RetentionPolicy;
  /** Fair share per company, load shedding and the statement time limit (hosts/capacity.ts). */
  readonly capacity: Capacity;
}

const Port = new t.Type<number, string, unknown>(
  "Port",
  (u): u is number => Number.isInteger(u) && (u as number) >= 0 && (u as number) <= 65535,
  (u, c) => {
    const decoded = IntegerFromString.validate(u, c);
    if (isLeft(decoded)) return decoded;
    return decoded.right >= 0 && decoded.right <= 65535 ? t.success(decoded.right) : t.failure(u, c, "must be a port number (0-65535)");
  },
  String,
);

const LogLevel = t.keyof({ fatal: null, error: null, warn: null, info: null, debug: null, trace: null, silent: null });

/** Express's names for address ranges, accepted in a TRUST_PROXY list. */
const NAMED_RANGES = new Set(["loopback", "linklocal", "uniquelocal"]);

const isAddressOrRange = (entry: string): boolean => {
  if (NAMED_RANGES.has(entry) || ipaddr.isValid(entry)) return true;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
};

const TrustProxySetting = new t.Type<TrustProxy, string, unknown>(
  "TrustProxy",
  (u): u is TrustProxy => typeof u === "boolean" || Number.isInteger(u) || Array.isArray(u),
  (u, c) => {
    if (typeof u !== "string") return t.failure(u, c, "must be a string");
    const value = u.trim();
    if (value === "true" || value === "false") return t.success(value === "true");
    if (/^\d+$/.test(value)) return t.success(Number(value));
    const entries = value
      .split(",")
      .map((entry) => entry.trim())
      .filter((entry) => entry !== "");
    const bad = entries.filter((entry) => !isAddressOrRange(entry));
    return entries.length > 0 && bad.length === 0
      ? t.success(entries)
      : t.failure(u, c, `must be true, a hop count, or a comma list of addresses/CIDRs (not: ${bad.join(", ") || value})`);
  },
  String,
);

/** A number of days to keep something; 0 keeps it forever. */
const Days = new t.Type<number, string, unknown>(
  "Days",
  (u): u is number => Number.isInteger(u) && (u as number) >= 0,
  (u, c) => {
    const decoded = IntegerFromString.validate(u, c);
    if (isLeft(decoded)) return decoded;
    return decoded.right >= 0 ? t.success(decoded.right) : t.failure(u, c, "must be a number of days (0 keeps forever)");
  },
  String,
);

const Environment = t.partial({
  DATABASE_URL: t.string,
  PORT: Port,
  HOST: t.string,
  BASE_URL: t.string,
  SECRET_KEY: t.string,
  MAIL_URL: t.string,
  REDIS_URL: t.string,
  ALLOW_PRIVATE_DESTINATIONS: BooleanFromString,
  TRANSLATION_URL: HttpUrl,
  TRANSLATION_API_KEY: t.string,
  LOG_LEVEL: LogLevel,
  TRUST_PROXY: TrustProxySetting,
  RETENTION_COMPLETED_JOBS_DAYS: Days,
  RETENTION_DEAD_JOBS_DAYS: Days,
  RETENTION_EMAIL_BODIES_DAYS: Days,
  RETENTION_DELIVERY_EVENTS_DAYS: Days,
  COMPANY_MAX_IN_FLIGHT: integerBetween(1, 100_000),
  SERVER_CONCURRENCY: integerBetween(1, 100_000),
  COMPANY_RATE_PER_MINUTE: integerBetween(1, 60_000_000),
  AUTH_FAILURES_PER_MINUTE: integerBetween(1, 1_000_000),
  SHED_EVENT_LOOP_DELAY_MS: integerBetween(0, 60_000),
  SHED_DB_QUEUE: integerBetween(0, 1_000_000),
  DB_STATEMENT_TIMEOUT_MS: integerBetween(0, 86_400_000),
  CAMPAIGN_BATCH_SIZE: integerBetween(1, 10_000),
  CAMPAIGN_SEND_RATE_PER_MINUTE: integerBetween(1, 60_000_000),
  CAMPAIGN_SERVER_SEND_RATE_PER_MINUTE: integerBetween(1, 60_000_000),
});

export interface ConfigOverrides {
  readonly databaseUrl?: string | undefined;
  readonly port?: number | undefined;
  readonly host?: string | undefined;
}

export class ConfigError extends Error {}

/** Reads the environment (empty variables count as unset), then applies command-line overrides. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: ConfigOverrides = {}): AppConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const decoded = Environment.decode(present);
  if (isLeft(decoded)) {
    const problems = reportErrors(decoded.left).map((error) => `${error.path} ${error.message}`);
    throw new ConfigError(`Invalid environment: ${problems.join("; ")}`);
  }
  const e = decoded.right;
  const port = overrides.port ?? e.PORT ?? 3000;
  return {
    databaseUrl: overrides.databaseUrl ?? e.DATABASE_URL ?? "sqlite:./data/lifecycle.sqlite",
    port,
    host: overrides.host ?? e.HOST ?? "127.0.0.1",
    baseUrl: (e.BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    secretKey: e.SECRET_KEY,
    mailUrl: e.MAIL_URL ?? "file:./data/outbox",
    redisUrl: e.REDIS_URL,
    allowPrivateDestinations: e.ALLOW_PRIVATE_DESTINATIONS ?? false,
    translation: e.TRANSLATION_URL ? { url: e.TRANSLATION_URL, apiKey: e.TRANSLATION_API_KEY } : undefined,
    campaignSends: {
      batchSize: e.CAMPAIGN_BATCH_SIZE ?? DEFAULT_CAMPAIGN_SENDS.batchSize,
      perCompany: e.CAMPAIGN_SEND_RATE_PER_MINUTE ?? null,
      perServer: e.CAMPAIGN_SERVER_SEND_RATE_PER_MINUTE ?? null,
    },
    logLevel: e.LOG_LEVEL ?? "info",
    trustProxy: e.TRUST_PROXY ?? false,
    retention: {
      completedJobsDays: e.RETENTION_COMPLETED_JOBS_DAYS ?? DEFAULT_RETENTION.completedJobsDays,
      deadJobsDays: e.RETENTION_DEAD_JOBS_DAYS ?? DEFAULT_RETENTION.deadJobsDays,
      emailBodiesDays: e.RETENTION_EMAIL_BODIES_DAYS ?? DEFAULT_RETENTION.emailBodiesDays,
      deliveryEventsDays: e.RETENTION_DELIVERY_EVENTS_DAYS ?? DEFAULT_RETENTION.deliveryEventsDays,
    },
    capacity: {
      companyMaxInFlight: e.COMPANY_MAX_IN_FLIGHT ?? DEFAULT_CAPACITY.companyMaxInFlight,
      serverConcurrency: e.SERVER_CONCURRENCY ?? DEFAULT_CAPACITY.serverConcurrency,
      companyPerMinute: e.COMPANY_RATE_PER_MINUTE ?? DEFAULT_CAPACITY.companyPerMinute,
      authFailuresPerMinute: e.AUTH_FAILURES_PER_MINUTE ?? DEFAULT_CAPACITY.authFailuresPerMinute,
      // 0 turns a shedding rule off.
      shedEventLoopDelayMs: e.SHED_EVENT_LOOP_DELAY_MS ?? DEFAULT_CAPACITY.shedEventLoopDelayMs,
      shedDbQueue: e.SHED_DB_QUEUE ?? DEFAULT_CAPACITY.shedDbQueue,
      dbStatementTimeoutMs: e.DB_STATEMENT_TIMEOUT_MS ?? DEFAULT_CAPACITY.dbStatementTimeoutMs,
    },
  };
}
