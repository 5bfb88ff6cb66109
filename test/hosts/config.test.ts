import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";
import { ConfigError, loadConfig } from "../../hosts/config.js";
import { loadSecretKey } from "../../hosts/secret-key.js";

test("defaults follow the contract, flags override variables", (t) => {
  t.deepEqual(loadConfig({}), {
    databaseUrl: "sqlite:./data/lifecycle.sqlite",
    port: 3000,
    host: "127.0.0.1",
    baseUrl: "http://localhost:3000",
    secretKey: undefined,
    mailUrl: "file:./data/outbox",
    redisUrl: undefined,
    allowPrivateDestinations: false,
    translation: undefined,
    campaignSends: { batchSize: 500, perCompany: null, perServer: null },
    logLevel: "info",
    trustProxy: false,
    retention: { completedJobsDays: 7, deadJobsDays: 30, emailBodiesDays: 30, deliveryEventsDays: 400 },
    capacity: {
      companyMaxInFlight: 24,
      serverConcurrency: 4,
      companyPerMinute: 3_000,
      authFailuresPerMinute: 30,
      shedEventLoopDelayMs: 100,
      shedDbQueue: 100,
      dbStatementTimeoutMs: 30_000,
    },
  });
  const config = loadConfig(
    { DATABASE_URL: "postgres://db/x", PORT: "8080", ALLOW_PRIVATE_DESTINATIONS: "true", BASE_URL: "https://mail.example.com/", HOST: "" },
    { port: 9090 },
  );
  t.is(config.databaseUrl, "postgres://db/x");
  t.is(config.port, 9090);
  t.is(config.host, "127.0.0.1", "an empty variable counts as unset");
  t.is(config.baseUrl, "https://mail.example.com");
  t.true(config.allowPrivateDestinations);
  t.is(loadConfig({ PORT: "4000" }).baseUrl, "http://localhost:4000");
});

test("TRUST_PROXY is off when unset, else true, a hop count, or a list of addresses and CIDRs", (t) => {
  t.is(loadConfig({}).trustProxy, false);
  t.is(loadConfig({ TRUST_PROXY: "true" }).trustProxy, true);
  t.is(loadConfig({ TRUST_PROXY: "false" }).trustProxy, false);
  t.is(loadConfig({ TRUST_PROXY: "2" }).trustProxy, 2);
  t.deepEqual(loadConfig({ TRUST_PROXY: "10.0.0.1, 172.16.0.0/12,loopback,::1" }).trustProxy, ["10.0.0.1", "172.16.0.0/12", "loopback", "::1"]);
  const error = t.throws(() => loadConfig({ TRUST_PROXY: "10.0.0.1,proxy.internal" }), { instanceOf: ConfigError });
  t.is(error.message, "Invalid environment: TRUST_PROXY must be true, a hop count, or a comma list of addresses/CIDRs (not: proxy.internal)");
});

test("retention periods come from RETENTION_* in days; 0 keeps forever", (t) => {
  const config = loadConfig({
    RETENTION_COMPLETED_JOBS_DAYS: "1",
    RETENTION_DEAD_JOBS_DAYS: "0",
    RETENTION_EMAIL_BODIES_DAYS: "90",
    RETENTION_DELIVERY_EVENTS_DAYS: "730",
  });
  t.deepEqual(config.retention, { completedJobsDays: 1, deadJobsDays: 0, emailBodiesDays: 90, deliveryEventsDays: 730 });
  const error = t.throws(() => loadConfig({ RETENTION_EMAIL_BODIES_DAYS: "-1" }), { instanceOf: ConfigError });
  t.is(error.message, "Invalid environment: RETENTION_EMAIL_BODIES_DAYS must be a number of days (0 keeps forever)");
});

test("capacity settings come from their variables, 0 turning a shedding rule or the statement limit off", (t) => {
  const { capacity } = loadConfig({
    COMPANY_MAX_IN_FLIGHT: "8",
    SERVER_CONCURRENCY: "16",
    COMPANY_RATE_PER_MINUTE: "600",
    AUTH_FAILURES_PER_MINUTE: "5",
    SHED_EVENT_LOOP_DELAY_MS: "0",
    SHED_DB_QUEUE: "0",
    DB_STATEMENT_TIMEOUT_MS: "0",
  });
  t.deepEqual(capacity, {
    companyMaxInFlight: 8,
    serverConcurrency: 16,
    companyPerMinute: 600,
    authFailuresPerMinute: 5,
    shedEventLoopDelayMs: 0,
    shedDbQueue: 0,
    dbStatementTimeoutMs: 0,
  });
  t.throws(() => loadConfig({ COMPANY_MAX_IN_FLIGHT: "0" }), { instanceOf: ConfigError, message: /COMPANY_MAX_IN_FLIGHT must be between 1 and/ });
  t.throws(() => loadConfig({ SERVER_CONCURRENCY: "0" }), { instanceOf: ConfigError, message: /SERVER_CONCURRENCY must be between 1 and/ });
});

test("CAMPAIGN_BATCH_SIZE sizes campaign batches; CAMPAIGN_SEND_RATE_PER_MINUTE and CAMPAIGN_SERVER_SEND_RATE_PER_MINUTE throttle campaign sends", (t) => {
  t.deepEqual(loadConfig({ CAMPAIGN_BATCH_SIZE: "50", CAMPAIGN_SEND_RATE_PER_MINUTE: "600", CAMPAIGN_SERVER_SEND_RATE_PER_MINUTE: "6000" }).campaignSends, {
    batchSize: 50,
    perCompany: 600,
    perServer: 6000,
  });
  t.throws(() => loadConfig({ CAMPAIGN_SEND_RATE_PER_MINUTE: "0" }), { instanceOf: ConfigError, message: /CAMPAIGN_SEND_RATE_PER_MINUTE/ });
});

test("TRANSLATION_URL names the translation service of localization syncs, with TRANSLATION_API_KEY", (t) => {
  t.deepEqual(loadConfig({ TRANSLATION_URL: "http://localhost:5000/", TRANSLATION_API_KEY: "k" }).translation, { url: "http://localhost:5000", apiKey: "k" });
  t.deepEqual(loadConfig({ TRANSLATION_URL: "https://translate.example.com/v2" }).translation, { url: "https://translate.example.com/v2", apiKey: undefined });
  t.is(loadConfig({ TRANSLATION_API_KEY: "k" }).translation, undefined, "a key alone names no service");
  const error = t.throws(() => loadConfig({ TRANSLATION_URL: "localhost:5000" }), { instanceOf: ConfigError });
  t.is(error.message, "Invalid environment: TRANSLATION_URL must be an absolute http(s) URL");
});

test("a bad variable is a readable error", (t) => {
  const error = t.throws(() => loadConfig({ PORT: "eighty", LOG_LEVEL: "loud" }), { instanceOf: ConfigError });
  t.is(error.message, "Invalid environment: PORT must be an integer; LOG_LEVEL must be one of: fatal, error, warn, info, debug, trace, silent");
});

test("the secret key is generated once with mode 0600, then read back; SECRET_KEY wins", (t) => {
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-secret-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "data", "secret.key");
  const first = loadSecretKey(undefined, file);
  t.is(first.length, 32);
  t.is(statSync(file).mode & 0o777, 0o600);
  t.deepEqual(loadSecretKey(undefined, file), first);
  t.is(Buffer.from(readFileSync(file, "utf8").trim(), "base64").length, 32);

  const given = Buffer.alloc(32, 7).toString("base64");
  t.deepEqual(loadSecretKey(given, file), Buffer.alloc(32, 7));
  t.throws(() => loadSecretKey("c2hvcnQ=", file), { message: "SECRET_KEY must be 32 bytes in base64 (got 5 bytes)" });
});
