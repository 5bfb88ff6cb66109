import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import express from "express";
import { SaveContact } from "../core/subscribers/save-contact.js";
import { createCompanyFixture, createMemberKeyFixture } from "../fixtures/companies.js";
import { createHttpApp } from "../hosts/http/app.js";
import { createLogger } from "../hosts/logger.js";
import { startRuntime } from "../hosts/runtime.js";
import { close, count, listen, seconds } from "./settings.js";

/**
 * Event ingestion: `POST /api/v1/subscribers/events` of the real app (SQLite file database:
 * key lookup, contact lookup or creation, event insert, definition upsert, ContactEvents) against
 * a bare Express POST route that parses the same JSON and answers a body of the same shape, in
 * the same process and run: same connections, same duration, alternating bare/real rounds.
 */

const PATH = "/api/v1/subscribers/events";
const GOAL = 0.3;
/** Enough keys for ~10,000 req/s for a minute within 20/s and 300/min per key. */
const KEYS = 2_500;
/** The company ceiling this run needs: every key's budget together. */
const COMPANY_RATE_PER_MINUTE = 1_000_000;
/** Contacts that exist before the run; the others an event names are created by it. */
const EXISTING_CONTACTS = 2_000;
/** One request in this many names a contact never seen before. */
const NEW_CONTACT_EVERY = 10;
const EVENT_NAMES = ["saas.purchase", "app.page_viewed", "app.feature_used", "saas.trial_started"];

const urlOf = (server: Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}${PATH}`;

const existingEmail = (i: number) => `contact-${i}@bench.example.com`;

/** The n-th request's body: mostly known contacts, every NEW_CONTACT_EVERY-th a new one. */
function bodyOf(n: number, run: string): string {
  const email = n % NEW_CONTACT_EVERY === 0 ? `new-${run}-${n}@bench.example.com` : existingEmail(n % EXISTING_CONTACTS);
  return JSON.stringify({ email, event: EVENT_NAMES[n % EVENT_NAMES.length], properties: { plan: "pro", amount: 4900 + (n % 100), source: "bench" } });
}

interface Load {
  readonly label: string;
  readonly url: string;
  /** Keys to rotate through, one per request, so no key exceeds its rate budget. */
  readonly keys: readonly string[];
}

let runs = 0;

/** One autocannon run; throws unless every response was a 2xx and nothing errored. */
async function run(load: Load, connections: number, duration: number): Promise<number> {
  let next = 0;
  const tag = `r${(runs += 1)}`;
  const result = await autocannon({
    url: load.url,
    method: "POST",
    headers: { "content-type": "application/json" },
    connections,
    duration,
    requests: [
      {
        setupRequest: (request) => {
          const n = next++;
          return { ...request, body: bodyOf(n, tag), headers: { ...request.headers, authorization: `Bearer ${load.keys[n % load.keys.length]}` } };
        },
      },
    ],
  });
  const problems = [
    result.non2xx > 0 ? `${result.non2xx} non-2xx responses (4xx ${result["4xx"]}, 5xx ${result["5xx"]})` : "",
    result.errors > 0 ? `${result.errors} errors` : "",
    result.timeouts > 0 ? `${result.timeouts} timeouts` : "",
    result["2xx"] === 0 ? "no 2xx responses" : "",
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`bench events-ingest: ${load.label} run is invalid: ${problems.join(", ")}`);
  return result.requests.average;
}

/** Both servers must accept an event and answer the same shape before any timing counts. */
async function check(load: Load): Promise<void> {
  const response = await fetch(load.url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${load.keys[0]}` },
    body: bodyOf(1, "check"),
  });
  const body = (await response.json()) as { success?: boolean; event?: { name?: string }; subscriber?: { email?: string } };
  if (response.status !== 200 || body.success !== true || body.event?.name !== EVENT_NAMES[1] || body.subscriber?.email !== existingEmail(1)) {
    throw new Error(`bench events-ingest: ${load.label} answered ${response.status} ${JSON.stringify(body)}`);
  }
}

const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;

export async function eventsIngest(): Promise<string> {
  const duration = seconds("BENCH_DURATION", 10);
  const warmup = seconds("BENCH_WARMUP", Math.min(2, duration));
  const rounds = count("BENCH_ROUNDS", 2);
  const connections = count("BENCH_CONNECTIONS", 10);

  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  // One company's event stream: its fair share across keys (3,000 a minute by default) is raised,
  // as an operator with such a stream would, and the line says so.
  const runtime = await startRuntime({
    databaseUrl: `sqlite:${join(dir, "bench.sqlite")}`,
    logger: createLogger("silent"),
    baseUrl: "http://127.0.0.1",
    capacity: { companyPerMinute: COMPANY_RATE_PER_MINUTE },
  });
  const servers: Server[] = [];
  try {
    const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
    const save = runtime.container.get(SaveContact);
    for (let i = 0; i < EXISTING_CONTACTS; i++) {
      const saved = await save.execute(company.companyId, { email: existingEmail(i), firstName: `Contact ${i}` }, "skip");
      if (saved._tag === "Left") throw new Error(saved.left.message);
    }

    // The baseline parses the same JSON and answers the same envelope, touching nothing else.
    let sequence = 0;
    const bareApp = express();
    bareApp.disable("x-powered-by");
    bareApp.set("etag", false);
    bareApp.post(PATH, express.json({ limit: "1mb" }), (req, res) => {
      const body = req.body as { email: string; event: string };
      sequence += 1;
      res.json({
        success: true,
        event: { id: `evt_${sequence}`, name: body.event, definitionCreated: false },
        subscriber: { id: `sub_${sequence}`, email: body.email, created: false },
      });
    });

    const realServer = await listen(createHttpApp(runtime.container));
    servers.push(realServer);
    const bareServer = await listen(bareApp);
    servers.push(bareServer);

    // Each key may make 20 requests a second and 300 a minute (the spec's limits): the load
    // rotates through enough keys to stay inside every key's budget.
    const keys = [company.ownerKey];
    for (let i = 1; i < KEYS; i++)
      keys.push((await createMemberKeyFixture(runtime.container, company.companyId, { role: "owner", email: company.ownerEmail })).key);
    const bare: Load = { label: "baseline", url: urlOf(bareServer), keys };
    const real: Load = { label: "events", url: urlOf(realServer), keys };
    await check(bare);
    await check(real);

    process.stderr.write(`events-ingest: ${connections} connections, warm-up ${warmup} s, ${rounds} x ${duration} s per side\n`);
    await run(bare, connections, warmup);
    await run(real, connections, warmup);

    const bareRates: number[] = [];
    const realRates: number[] = [];
    for (let round = 1; round <= rounds; round += 1) {
      bareRates.push(await run(bare, connections, duration));
      realRates.push(await run(real, connections, duration));
      process.stderr.write(`  round ${round}: baseline ${Math.round(bareRates.at(-1)!)} events/s, events ${Math.round(realRates.at(-1)!)} events/s\n`);
    }

    const figure = mean(realRates);
    const baseline = mean(bareRates);
    const ratio = figure / baseline;
    return `bench events-ingest: ${Math.round(figure)} events/s vs baseline ${Math.round(baseline)} events/s = ratio ${ratio.toFixed(2)} (goal >= ${GOAL}; COMPANY_RATE_PER_MINUTE=${COMPANY_RATE_PER_MINUTE})`;
  } finally {
    for (const server of servers) await close(server);
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
