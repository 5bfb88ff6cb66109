import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import { SaveContact } from "../core/subscribers/save-contact.js";
import { createCompanyFixture, createMemberKeyFixture } from "../fixtures/companies.js";
import { createHttpApp } from "../hosts/http/app.js";
import { requestLog } from "../hosts/http/middleware/request-log.js";
import { startRuntime } from "../hosts/runtime.js";
import { HttpLoad, type LoadPlan } from "./http-load.js";
import { flushed, infoLogTo, linesIn } from "./log-file.js";
import { alternate, ratioLine } from "./rounds.js";
import { close, count, listen, seconds } from "./settings.js";

/**
 * Event ingestion: `POST /api/v1/subscribers/events` of the real app (SQLite file database:
 * key lookup, contact lookup or creation, event insert, definition upsert, ContactEvents;
 * `LOG_LEVEL=info` to a file) against a bare Express POST route with the same JSON body parser
 * and the same request logger, answering a body of the same shape. The load comes from autocannon
 * in a process of its own, the same for both sides, in alternating rounds.
 */

const NAME = "events-ingest";
const PATH = "/api/v1/subscribers/events";
const GOAL = 0.4;
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

/**
 * The bodies of one run, taken in turn: mostly known contacts, every NEW_CONTACT_EVERY-th a new
 * one (`{n}` is the request's number, `run` tells runs apart), four event names, a few properties.
 */
function bodiesOf(run: string): string[] {
  return Array.from({ length: EXISTING_CONTACTS }, (_, i) => {
    const email = i % NEW_CONTACT_EVERY === 0 ? `new-${run}-{n}@bench.example.com` : existingEmail(i);
    return JSON.stringify({ email, event: EVENT_NAMES[i % EVENT_NAMES.length], properties: { plan: "pro", amount: 4900 + (i % 100), source: "bench" } });
  });
}

/** Both servers must accept an event and answer the same shape before any timing counts. */
async function check(url: string, key: string, label: string): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: bodiesOf("check")[1],
  });
  const body = (await response.json()) as { success?: boolean; event?: { name?: string }; subscriber?: { email?: string } };
  if (response.status !== 200 || body.success !== true || body.event?.name !== EVENT_NAMES[1] || body.subscriber?.email !== existingEmail(1)) {
    throw new Error(`bench ${NAME}: ${label} answered ${response.status} ${JSON.stringify(body)}`);
  }
}

export async function eventsIngest(): Promise<string> {
  const duration = seconds("BENCH_DURATION", 10);
  const warmup = seconds("BENCH_WARMUP", Math.min(2, duration));
  const rounds = count("BENCH_ROUNDS", 3);
  const connections = count("BENCH_CONNECTIONS", 10);

  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  const productLog = infoLogTo(join(dir, "product.log"));
  const baselineLog = infoLogTo(join(dir, "baseline.log"));
  // One company's event stream: its fair share across keys (3,000 a minute by default) is raised,
  // as an operator with such a stream would, and the line says so.
  const runtime = await startRuntime({
    databaseUrl: `sqlite:${join(dir, "bench.sqlite")}`,
    logger: productLog,
    baseUrl: "http://127.0.0.1",
    capacity: { companyPerMinute: COMPANY_RATE_PER_MINUTE },
  });
  const servers: Server[] = [];
  const load = await HttpLoad.start();
  try {
    const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
    const save = runtime.container.get(SaveContact);
    for (let i = 0; i < EXISTING_CONTACTS; i++) {
      const saved = await save.execute(company.companyId, { email: existingEmail(i), firstName: `Contact ${i}` }, "skip");
      if (saved._tag === "Left") throw new Error(saved.left.message);
    }

    // What an expert's bare service would be: Express, the same JSON parser and request logger,
    // an answer of the same envelope, nothing stored.
    let sequence = 0;
    const bareApp = express();
    bareApp.disable("x-powered-by");
    bareApp.set("etag", false);
    bareApp.use(requestLog(baselineLog));
    bareApp.post(PATH, express.json({ limit: "1mb" }), (req, res) => {
      const body = req.body as { email: string; event: string };
      sequence += 1;
      res.json({
        success: true,
        event: { id: `evt_${sequence}`, name: body.event, definitionCreated: false },
        subscriber: { id: `sub_${sequence}`, email: body.email, created: false },
      });
    });

    const productServer = await listen(createHttpApp(runtime.container));
    servers.push(productServer);
    const bareServer = await listen(bareApp);
    servers.push(bareServer);

    // Each key may make 20 requests a second and 300 a minute (the spec's limits): the load
    // rotates through enough keys to stay inside every key's budget; both sides get the same.
    const keys = [company.ownerKey];
    for (let i = 1; i < KEYS; i++)
      keys.push((await createMemberKeyFixture(runtime.container, company.companyId, { role: "owner", email: company.ownerEmail })).key);
    await check(urlOf(bareServer), company.ownerKey, "baseline");
    await check(urlOf(productServer), company.ownerKey, "product");

    let runs = 0;
    let productAnswers = 1;
    let productRuns = 0;
    let baselineAnswers = 1;
    const plan = (label: string, server: Server): LoadPlan => ({
      label,
      url: urlOf(server),
      method: "POST",
      connections,
      keys,
      bodies: bodiesOf(`r${(runs += 1)}`),
    });
    const product = async (length: number, warmUp = false) => {
      const report = await load.run(plan("product", productServer), { duration: length }, { warmUp });
      productAnswers += report.ok;
      productRuns += 1;
      return report.rate;
    };
    const baseline = async (length: number, warmUp = false) => {
      const report = await load.run(plan("baseline", bareServer), { duration: length }, { warmUp });
      baselineAnswers += report.ok;
      return report.rate;
    };

    process.stderr.write(`${NAME}: ${connections} connections from a separate process, warm-up ${warmup} s, ${rounds} x ${duration} s per side\n`);
    await baseline(warmup, true);
    await product(warmup, true);
    const comparison = await alternate(
      NAME,
      rounds,
      "events/s",
      () => baseline(duration),
      () => product(duration),
    );

    // Every answered event is stored (and at most the requests still in flight when a run
    // stopped besides), every tenth with a contact it created; both sides logged every answer.
    for (const server of servers.splice(0)) await close(server);
    const stored = Number((await runtime.knex("custom_events").where({ company_id: company.companyId }).count({ n: "*" }).first())!.n);
    const created = Number((await runtime.knex("subscribers").where({ company_id: company.companyId }).count({ n: "*" }).first())!.n) - EXISTING_CONTACTS;
    const inFlight = connections * productRuns;
    if (stored < productAnswers || stored > productAnswers + inFlight) throw new Error(`bench ${NAME}: ${stored} events stored for ${productAnswers} answered`);
    const expectedNew = Math.floor(productAnswers / NEW_CONTACT_EVERY);
    if (Math.abs(created - expectedNew) > inFlight + productRuns) throw new Error(`bench ${NAME}: ${created} contacts created, about ${expectedNew} expected`);
    await flushed(productLog);
    await flushed(baselineLog);
    for (const [side, file, answered] of [
      ["product", "product.log", productAnswers],
      ["baseline", "baseline.log", baselineAnswers],
    ] as const) {
      const lines = linesIn(join(dir, file));
      if (lines < answered) throw new Error(`bench ${NAME}: the ${side} logged ${lines} lines for ${answered} answers`);
    }
    process.stderr.write(`  ${stored} events stored, ${created} contacts created by them\n`);
    return ratioLine(NAME, "events/s", comparison, GOAL, [
      "LOG_LEVEL=info to a file",
      `${connections} connections`,
      `COMPANY_RATE_PER_MINUTE=${COMPANY_RATE_PER_MINUTE}`,
    ]);
  } finally {
    await load.close();
    for (const server of servers) await close(server);
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
