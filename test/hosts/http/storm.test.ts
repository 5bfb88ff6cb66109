import { spawn } from "node:child_process";
import { Agent, request as httpRequest } from "node:http";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test, { type ExecutionContext } from "ava";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { createLogger } from "../../../hosts/logger.js";
import { startRuntime } from "../../../hosts/runtime.js";
import { DEFAULT_CAPACITY } from "../../../hosts/capacity.js";
import { insertContactRows } from "../../helpers/contact-rows.js";
import { startCli } from "../../helpers/cli.js";
import { dialects, type Dialect } from "../../helpers/databases.js";

/**
 * One company storms the API with heavy list pages over many keys (as an owner who mints keys
 * can), while another company works normally and a monitor polls /health. The server runs in a
 * process of its own, the load comes from this one, over loopback.
 */
const STORM_KEYS = 12;
const STORM_CONCURRENCY = 800;
const STORM_MS = 8_000;
const CONTACTS = 1_000;
const HEAVY = `/api/v1/subscribers?limit=${CONTACTS}`;
/** Runnable tasks per core beyond which timing says more about the machine than about the server. */
const OVERSUBSCRIBED = 2;
const STORM_CLIENT = fileURLToPath(new URL("../../helpers/storm-client.js", import.meta.url));

interface Timed {
  readonly status: number;
  readonly ms: number;
  readonly retryAfter: string | null;
  readonly failure?: string;
}

/**
 * A request and how long it took, over the caller's own kept-alive connection (as an SDK or a
 * proxy keeps one); a connection that failed counts as status 0 (with its cause).
 */
function timedCall(agent: Agent, url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Timed> {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = httpRequest(url, { agent, method: init.method ?? "GET", headers: init.headers, timeout: 30_000 }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          ms: performance.now() - started,
          retryAfter: response.headers["retry-after"] ?? null,
        }),
      );
    });
    request.on("timeout", () => request.destroy(new Error("timed out")));
    request.on("error", (error: NodeJS.ErrnoException) =>
      resolve({ status: 0, ms: performance.now() - started, retryAfter: null, failure: error.code ?? error.message }),
    );
    request.end(init.body);
  });
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Two companies in the database: the storming one with 12 keys and 1,000 contacts, the other with one key. */
async function seed(databaseUrl: string) {
  const runtime = await startRuntime({ databaseUrl, logger: createLogger("silent"), baseUrl: "http://localhost" });
  try {
    const storming = await createCompanyFixture(runtime.container, { name: "Storming" });
    const keys = [storming.ownerKey];
    for (let i = 1; i < STORM_KEYS; i++)
      keys.push((await createMemberKeyFixture(runtime.container, storming.companyId, { role: "owner", email: storming.ownerEmail })).key);
    const contacts = Array.from({ length: CONTACTS }, (_, i) => ({
      id: `sub_storm_${String(i).padStart(5, "0")}`,
      email: `contact-${i}@storm.example`,
      firstName: "Ada",
      lastName: `Lovelace ${i}`,
      attributes: { plan: i % 2 ? "pro" : "free", seats: i, region: "eu-west" },
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      tags: ["customer", i % 3 ? "newsletter" : "vip"],
    }));
    await runtime.knex.transaction((trx) => insertContactRows(trx, storming.companyId, contacts));
    const other = await createCompanyFixture(runtime.container, { name: "Neighbour" });
    return { stormKeys: keys, otherKey: other.ownerKey };
  } finally {
    await runtime.close();
  }
}

async function storm(t: ExecutionContext, dialect: Dialect) {
  const database = await dialect.create();
  t.teardown(() => database.drop());
  const cwd = mkdtempSync(join(tmpdir(), "lifecycle-storm-"));
  t.teardown(() => rmSync(cwd, { recursive: true, force: true }));
  const { stormKeys, otherKey } = await seed(database.url);
  // The server as an operator runs it: every capacity setting at its default.
  const server = await startCli(["serve", "--port", "0", "--no-worker"], {
    cwd,
    env: { ...database.env, MAIL_URL: "memory:", SHED_EVENT_LOOP_DELAY_MS: String(DEFAULT_CAPACITY.shedEventLoopDelayMs) },
  });
  t.teardown(() => server.stop());
  const auth = (key: string) => ({ authorization: `Bearer ${key}` });

  let storming = true;
  const stormer = spawn(process.execPath, [STORM_CLIENT, server.url, HEAVY, JSON.stringify(stormKeys), String(STORM_CONCURRENCY), String(STORM_MS)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let stormOutput = "";
  stormer.stdout.on("data", (chunk) => (stormOutput += chunk));
  const stormDone = once(stormer, "close");
  // The monitor and the neighbour each keep one connection open, as an SDK or a proxy does. A new
  // connection would wait in the listen queue behind the storm's own: Node (libuv) accepts one
  // connection per turn of its event loop, so a flood of connections is for a proxy in front to
  // limit (README, Security).
  const monitorConnection = new Agent({ keepAlive: true, maxSockets: 1 });
  const neighbourConnection = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => {
    monitorConnection.destroy();
    neighbourConnection.destroy();
  });
  const health: Timed[] = [];
  const healthMonitor = async () => {
    while (storming) {
      health.push(await timedCall(monitorConnection, `${server.url}/health`));
      await sleep(50);
    }
  };
  // The neighbour creates a contact, then reads its own list, in turn; every acknowledged contact must be kept.
  const light: Timed[] = [];
  const acknowledged: string[] = [];
  const neighbour = async () => {
    for (let i = 0; storming; i++) {
      const email = `neighbour-${i}@other.example`;
      const created = await timedCall(neighbourConnection, `${server.url}/api/v1/subscribers`, {
        method: "POST",
        headers: { ...auth(otherKey), "content-type": "application/json" },
        body: JSON.stringify({ email }),
      });
      light.push(created);
      if (created.status === 200 || created.status === 201) acknowledged.push(email);
      light.push(await timedCall(neighbourConnection, `${server.url}/api/v1/subscribers?limit=10`, { headers: auth(otherKey) }));
      await sleep(100);
    }
  };

  const started = Date.now();
  const running = [healthMonitor(), neighbour()];
  await stormDone;
  storming = false;
  await Promise.all(running);
  const elapsedMs = Date.now() - started;
  const stormResults = JSON.parse(stormOutput) as Timed[];

  const count = (results: readonly Timed[], status: number) => results.filter((r) => r.status === status).length;
  const figures = {
    dialect: dialect.name,
    seconds: Math.round(elapsedMs / 100) / 10,
    storm: {
      requests: stormResults.length,
      ok: count(stormResults, 200),
      limited: count(stormResults, 429),
      shed: count(stormResults, 503),
      failedConnections: count(stormResults, 0),
    },
    healthP95Ms: Math.round(
      percentile(
        health.map((r) => r.ms),
        95,
      ),
    ),
    healthPolls: health.length,
    neighbourP95Ms: Math.round(
      percentile(
        light.map((r) => r.ms),
        95,
      ),
    ),
    neighbourRequests: light.length,
    neighbourStatuses: [...new Set(light.map((r) => r.status))].sort().join(","),
    acknowledgedWrites: acknowledged.length,
  };
  t.log(JSON.stringify(figures));

  const answered = stormResults.filter((r) => r.status !== 0);
  const unexpected = answered.filter((r) => ![200, 429, 503].includes(r.status));
  t.deepEqual([...new Set(unexpected.map((r) => `${r.status} ${r.failure ?? ""}`))], [], "the storming company sees only 200, 429 and 503");
  t.true(
    answered.filter((r) => r.status !== 200).every((r) => r.retryAfter !== null && Number(r.retryAfter) >= 1),
    "every refusal says when to retry",
  );
  t.true(figures.storm.ok > 0, "the storming company is still served its share");
  t.true(
    health.every((r) => r.status === 200),
    "/health stays 200 while the database answers",
  );
  // The latency goals (and a storm client that keeps its own connections) need a machine that is
  // not running several times more work than it has cores; on one that is, the figures are logged only.
  const runQueuePerCore = loadavg()[0]! / availableParallelism();
  if (runQueuePerCore <= OVERSUBSCRIBED) {
    t.is(figures.storm.failedConnections, 0, "every storm request was answered");
    // The latency goals hold on SQLite; on Postgres the other company's is missed in about one run
    // in three (BENCHMARKS.md, "storm"), so there they are checked on demand. Figures are always logged.
    if (dialect.name === "sqlite" || process.env.STORM_LATENCY_GOALS === "1") {
      t.true(figures.healthP95Ms < 250, `/health p95 ${figures.healthP95Ms} ms`);
      t.true(figures.neighbourP95Ms < 1_000, `neighbour p95 ${figures.neighbourP95Ms} ms`);
    }
  } else {
    t.log(`latency goals not asserted: the machine runs ${runQueuePerCore.toFixed(1)} tasks per core`);
  }
  t.true(acknowledged.length > 0, "the neighbour's writes were acknowledged");

  // Nothing acknowledged is lost: every contact the neighbour was told about is there.
  // Right after the storm the server may still shed a request, or drop a connection it could not
  // take: the check waits as Retry-After says (a second after a dropped connection) and asks again.
  // Each ask is bounded: undici would otherwise wait 300 s for the headers of one that hangs.
  const list = () => fetch(`${server.url}/api/v1/subscribers?limit=1000`, { headers: auth(otherKey), signal: AbortSignal.timeout(10_000) }).catch(() => null);
  let listed = await list();
  for (let attempt = 1; listed?.status !== 200 && attempt < 20; attempt++) {
    await sleep(1_000 * Number(listed?.headers.get("retry-after") ?? 1));
    listed = await list();
  }
  t.is(listed?.status, 200);
  const emails = new Set(listed ? ((await listed.json()) as { subscribers: Array<{ email: string }> }).subscribers.map((s) => s.email) : []);
  t.deepEqual(
    acknowledged.filter((email) => !emails.has(email)),
    [],
  );
  monitorConnection.destroy();
  neighbourConnection.destroy();
  t.is(await server.stop(), 0);
}

// One storm at a time: two at once would each measure the other's load as much as their own.
for (const dialect of dialects()) {
  test.serial(`${dialect.name}: a storm of heavy lists from one company leaves /health and other companies fast`, async (t) => {
    // 8 s of storm, but on a busy machine setting up 1,000 contacts and the server takes long, and
    // the storm client waits out its requests' 30 s timeouts (a CI run took 62 s for the storm alone).
    t.timeout(6 * 60_000);
    await storm(t, dialect);
  });
}
