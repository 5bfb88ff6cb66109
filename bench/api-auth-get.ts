import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import express from "express";
import { createCompanyFixture, createMemberKeyFixture } from "../fixtures/companies.js";
import { createHttpApp } from "../hosts/http/app.js";
import { createLogger } from "../hosts/logger.js";
import { startRuntime } from "../hosts/runtime.js";
import { close, count, listen, seconds } from "./settings.js";

/**
 * Authenticated `GET /api/v1/subscribers/me` of the real app (SQLite file database, one key
 * looked up per request) against a bare Express route returning the same JSON, in the same
 * process and run: same connections, same duration, alternating bare/auth rounds.
 */

const PATH = "/api/v1/subscribers/me";
const GOAL = 0.7;
/** Enough keys for ~10,000 req/s for a minute within 20/s and 300/min per key. */
const KEYS = 2_500;
/** Enough companies for the same load within each company's default 3,000 a minute. */
const COMPANIES = 250;

const urlOf = (server: Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}${PATH}`;

interface Load {
  readonly label: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  /** Keys to rotate through, one per request, so no key exceeds its rate budget. */
  readonly keys: readonly string[];
}

/** One autocannon run; throws unless every response was a 2xx and nothing errored. */
async function run(load: Load, connections: number, duration: number): Promise<number> {
  let next = 0;
  const result = await autocannon({
    url: load.url,
    headers: load.headers,
    connections,
    duration,
    requests: [
      {
        setupRequest: (request) => ({ ...request, headers: { ...request.headers, authorization: `Bearer ${load.keys[next++ % load.keys.length]}` } }),
      },
    ],
  });
  const problems = [
    result.non2xx > 0 ? `${result.non2xx} non-2xx responses (4xx ${result["4xx"]}, 5xx ${result["5xx"]})` : "",
    result.errors > 0 ? `${result.errors} errors` : "",
    result.timeouts > 0 ? `${result.timeouts} timeouts` : "",
    result["2xx"] === 0 ? "no 2xx responses" : "",
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`bench api-auth-get: ${load.label} run is invalid: ${problems.join(", ")}`);
  return result.requests.average;
}

/** Both servers must answer the same body before any timing counts. */
async function checkBody(load: Load, expected: unknown): Promise<void> {
  const response = await fetch(load.url, { headers: load.headers });
  const body: unknown = await response.json();
  if (response.status !== 200 || JSON.stringify(body) !== JSON.stringify(expected)) {
    throw new Error(`bench api-auth-get: ${load.label} answered ${response.status} ${JSON.stringify(body)}, expected 200 ${JSON.stringify(expected)}`);
  }
}

const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

export async function apiAuthGet(): Promise<string> {
  const duration = seconds("BENCH_DURATION", 10);
  const warmup = seconds("BENCH_WARMUP", Math.min(2, duration));
  const rounds = count("BENCH_ROUNDS", 2);
  const connections = count("BENCH_CONNECTIONS", 10);

  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  const runtime = await startRuntime({ databaseUrl: `sqlite:${join(dir, "bench.sqlite")}`, logger: createLogger("silent"), baseUrl: "http://127.0.0.1" });
  const servers: Server[] = [];
  try {
    const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
    const expected = { success: true, account: { companyId: company.companyId, companyName: company.name, apiKeyType: "company" } };

    const bareApp = express();
    bareApp.disable("x-powered-by");
    bareApp.set("etag", false);
    bareApp.get(PATH, (_req, res) => {
      res.json({ success: true, account: { companyId: company.companyId, companyName: company.name, apiKeyType: "company" } });
    });

    const authServer = await listen(createHttpApp(runtime.container));
    servers.push(authServer);
    const bareServer = await listen(bareApp);
    servers.push(bareServer);

    // Each key may make 20 requests a second and 300 a minute (the spec's limits, enforced on this
    // route too), and each company 3,000 a minute across its keys (the default fair share): the
    // load rotates through enough keys of enough companies to stay inside every budget, so the
    // product runs with its default settings.
    const keys: string[] = [];
    for (let c = 0; c < COMPANIES; c++) {
      const tenant = c === 0 ? company : await createCompanyFixture(runtime.container, { name: `Bench Company ${c}` });
      keys.push(tenant.ownerKey);
      for (let i = 1; i < KEYS / COMPANIES; i++)
        keys.push((await createMemberKeyFixture(runtime.container, tenant.companyId, { role: "owner", email: tenant.ownerEmail })).key);
    }
    const headers = { authorization: `Bearer ${company.ownerKey}` };
    const bare: Load = { label: "baseline", url: urlOf(bareServer), headers, keys };
    const auth: Load = { label: "authenticated", url: urlOf(authServer), headers, keys };
    await checkBody(bare, expected);
    await checkBody(auth, expected);

    process.stderr.write(`api-auth-get: ${connections} connections, warm-up ${warmup} s, ${rounds} x ${duration} s per side\n`);
    await run(bare, connections, warmup);
    await run(auth, connections, warmup);

    const bareRates: number[] = [];
    const authRates: number[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      bareRates.push(await run(bare, connections, duration));
      authRates.push(await run(auth, connections, duration));
      process.stderr.write(`  round ${round}: baseline ${Math.round(bareRates.at(-1)!)} req/s, authenticated ${Math.round(authRates.at(-1)!)} req/s\n`);
    }

    const figure = mean(authRates);
    const baseline = mean(bareRates);
    const ratio = figure / baseline;
    return `bench api-auth-get: ${Math.round(figure)} req/s vs baseline ${Math.round(baseline)} req/s = ratio ${ratio.toFixed(2)} (goal >= ${GOAL})`;
  } finally {
    for (const server of servers) await close(server);
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
