import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import { createCompanyFixture, createMemberKeyFixture } from "../fixtures/companies.js";
import { createHttpApp } from "../hosts/http/app.js";
import { requestLog } from "../hosts/http/middleware/request-log.js";
import { startRuntime } from "../hosts/runtime.js";
import { HttpLoad, type LoadPlan } from "./http-load.js";
import { flushed, infoLogTo, linesIn } from "./log-file.js";
import { alternate, ratioLine } from "./rounds.js";
import { close, count, listen, seconds } from "./settings.js";

/**
 * Authenticated `GET /api/v1/subscribers/me` of the real app (SQLite file database, default
 * settings, `LOG_LEVEL=info` to a file) against a bare Express route answering the same JSON
 * with the same request logger (pino-http, same level, same kind of destination). The load comes
 * from autocannon in a process of its own, the same for both sides, in alternating rounds.
 */

const NAME = "api-auth-get";
const PATH = "/api/v1/subscribers/me";
const GOAL = 0.7;
/** Enough keys for ~10,000 req/s for a minute within 20/s and 300/min per key. */
const KEYS = 2_500;
/** Enough companies for the same load within each company's default 3,000 a minute. */
const COMPANIES = 250;

const urlOf = (server: Server): string => `http://127.0.0.1:${(server.address() as AddressInfo).port}${PATH}`;

export async function apiAuthGet(): Promise<string> {
  const duration = seconds("BENCH_DURATION", 10);
  const warmup = seconds("BENCH_WARMUP", Math.min(2, duration));
  const rounds = count("BENCH_ROUNDS", 3);
  const connections = count("BENCH_CONNECTIONS", 10);

  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  const productLog = infoLogTo(join(dir, "product.log"));
  const baselineLog = infoLogTo(join(dir, "baseline.log"));
  const runtime = await startRuntime({ databaseUrl: `sqlite:${join(dir, "bench.sqlite")}`, logger: productLog, baseUrl: "http://127.0.0.1" });
  const servers: Server[] = [];
  const load = await HttpLoad.start();
  try {
    const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });

    const bareApp = express();
    // What an expert's bare service would be: Express, the same request logger, one JSON answer.
    bareApp.disable("x-powered-by");
    bareApp.set("etag", false);
    bareApp.use(requestLog(baselineLog));
    bareApp.get(PATH, (_req, res) => {
      res.json({ success: true, account: { companyId: company.companyId, companyName: company.name, apiKeyType: "company" } });
    });

    const productServer = await listen(createHttpApp(runtime.container));
    servers.push(productServer);
    const bareServer = await listen(bareApp);
    servers.push(bareServer);

    // Each key may make 20 requests a second and 300 a minute (the spec's limits, enforced on this
    // route too), and each company 3,000 a minute across its keys (the default fair share): the
    // load rotates through enough keys of enough companies to stay inside every budget, so the
    // product runs with its default settings. Both sides get the same rotating headers.
    const keys: string[] = [];
    const answers: string[] = [];
    for (let c = 0; c < COMPANIES; c++) {
      const tenant = c === 0 ? company : await createCompanyFixture(runtime.container, { name: `Bench Company ${c}` });
      const answer = JSON.stringify({ success: true, account: { companyId: tenant.companyId, companyName: tenant.name, apiKeyType: "company" } });
      keys.push(tenant.ownerKey);
      answers.push(answer);
      for (let i = 1; i < KEYS / COMPANIES; i++) {
        keys.push((await createMemberKeyFixture(runtime.container, tenant.companyId, { role: "owner", email: tenant.ownerEmail })).key);
        answers.push(answer);
      }
    }
    // The product answers each key with its company's account; every answer of every run is
    // compared with the one expected for its key (a 401 or another company's account is a failure),
    // so a run cannot pass by answering fast and wrong. The bare route answers the first company
    // whatever the key: it is checked against that body.
    const productPlan: LoadPlan = { label: "product", url: urlOf(productServer), method: "GET", connections, keys, answers };
    const baselinePlan: LoadPlan = { label: "baseline", url: urlOf(bareServer), method: "GET", connections, keys, answers: [answers[0]!] };

    process.stderr.write(`${NAME}: ${connections} connections from a separate process, warm-up ${warmup} s, ${rounds} x ${duration} s per side\n`);
    await load.run(baselinePlan, { duration: warmup }, { warmUp: true });
    await load.run(productPlan, { duration: warmup }, { warmUp: true });
    let productAnswers = 0;
    let baselineAnswers = 0;
    const comparison = await alternate(
      NAME,
      rounds,
      "req/s",
      async () => {
        const report = await load.run(baselinePlan, { duration });
        baselineAnswers += report.ok;
        return report.rate;
      },
      async () => {
        const report = await load.run(productPlan, { duration });
        productAnswers += report.ok;
        return report.rate;
      },
    );

    // Both sides logged a line per answered request (the run counts only those answered in time).
    await flushed(productLog);
    await flushed(baselineLog);
    for (const [side, file, answered] of [
      ["product", "product.log", productAnswers],
      ["baseline", "baseline.log", baselineAnswers],
    ] as const) {
      const lines = linesIn(join(dir, file));
      if (lines < answered) throw new Error(`bench ${NAME}: the ${side} logged ${lines} lines for ${answered} answers`);
    }
    return ratioLine(NAME, "req/s", comparison, GOAL, [`LOG_LEVEL=info to a file`, `${connections} connections`]);
  } finally {
    await load.close();
    for (const server of servers) await close(server);
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
