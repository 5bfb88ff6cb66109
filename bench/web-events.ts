import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import express from "express";
import { WEB_TRACKING_BODY_LIMIT } from "../core/web-tracking/abuse-limits.js";
import { customerEventsPath } from "../core/web-tracking/model.js";
import { createCompanyFixture } from "../fixtures/companies.js";
import { createHttpApp } from "../hosts/http/app.js";
import { requestLog } from "../hosts/http/middleware/request-log.js";
import { startRuntime } from "../hosts/runtime.js";
import { HttpLoad, type LoadPlan } from "./http-load.js";
import { flushed, infoLogTo, linesIn } from "./log-file.js";
import { alternate, ratioLine } from "./rounds.js";
import { close, count, listen, seconds } from "./settings.js";

/**
 * Web tracking events as the browser script posts them: `POST {endpoint}` of the real app (SQLite
 * file database; the client address's and the key's budgets, the key and the page's origin, the
 * body read as text and decoded, the identity token's signature, the contact, two custom events
 * stored) against a bare Express route with the same request logger that reads and parses the
 * same body and answers the same JSON. Both sit behind `TRUST_PROXY=loopback`: the load, from
 * autocannon in a process of its own, says it forwards for many visitors (X-Forwarded-For), as a
 * site's traffic comes from many addresses; each address's budget (10 a second) would refuse one
 * client's stream. The events of many companies' sites rotate, each with its own key (a key may
 * take 100 a second for a minute) and visitors signed in with identity tokens minted by the API.
 */

const NAME = "web-events";
const GOAL = 0.4;
const SITES = 100;
const VISITORS_PER_SITE = 10;
/** Visitors' addresses the proxy forwards for: each stays far inside 120 a minute. */
const CLIENT_ADDRESSES = 20_000;
const ORIGIN = "https://shop.example";
const EVENTS_PER_BATCH = 2;
const ANSWER = JSON.stringify({ success: true, accepted: EVENTS_PER_BATCH, duplicates: 0 });

/** One page view and one product view, with IDs of the run (`{run}`) and request (`{n}`), so no batch is a retry of another. */
const batchOf = (publicKey: string, email: string, token: string): string =>
  JSON.stringify({
    publicKey,
    anonymousId: "anon-{run}-{n}",
    identity: { email, token },
    events: [
      { id: "{run}-{n}-page", type: "page", properties: { url: `${ORIGIN}/products/mug`, title: "Blue mug", referrer: `${ORIGIN}/` } },
      {
        id: "{run}-{n}-product",
        type: "viewedProduct",
        properties: { productId: "sku-42", name: "Blue mug", price: 1_200, currency: "EUR", category: "Kitchen" },
      },
    ],
  });

export async function webEvents(): Promise<string> {
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
    const productServer = await listen(createHttpApp(runtime.container, { trustProxy: ["loopback"] }));
    servers.push(productServer);
    const productUrl = `http://127.0.0.1:${(productServer.address() as AddressInfo).port}`;
    const api = async (key: string, path: string, body: unknown): Promise<{ key?: { publicKey: string }; identityToken?: string }> => {
      for (let attempt = 1; ; attempt += 1) {
        const response = await fetch(`${productUrl}/api/v1${path}`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        const answer = (await response.json()) as { key?: { publicKey: string }; identityToken?: string };
        if (response.status === 200) return answer;
        // The app sheds requests (503) while its event loop lags, as a busy machine makes it: retried, as a client would.
        if (response.status === 503 && attempt < 20) await new Promise((resolve) => setTimeout(resolve, 250));
        else throw new Error(`bench ${NAME}: POST ${path} answered ${response.status} ${JSON.stringify(answer)}`);
      }
    };

    // Each site: a company, its publishable key for the shop's origin, visitors signed in.
    const paths: string[] = [];
    const bodies: string[] = [];
    const companies: string[] = [];
    for (let site = 0; site < SITES; site += 1) {
      const company = await createCompanyFixture(runtime.container, { name: `Shop ${site}` });
      companies.push(company.companyId);
      const { key } = await api(company.ownerKey, "/web-tracking-keys", { name: "Shop", allowedOrigins: [ORIGIN] });
      for (let visitor = 0; visitor < VISITORS_PER_SITE; visitor += 1) {
        const email = `visitor-${visitor}@shop${site}.example`;
        const { identityToken } = await api(company.ownerKey, "/web-tracking-identities", { email, publicKey: key!.publicKey });
        paths.push(customerEventsPath(company.companyId));
        bodies.push(batchOf(key!.publicKey, email, identityToken!));
      }
    }

    // What an expert's bare endpoint would be: Express behind the same proxy, the same request
    // logger, the body read as text (the script sends JSON as text/plain) and parsed, the same answer.
    const bareApp = express();
    bareApp.disable("x-powered-by");
    bareApp.set("etag", false);
    bareApp.set("trust proxy", ["loopback"]);
    bareApp.use(requestLog(baselineLog));
    bareApp.post("/api/webhooks/commerce/api/:companyId/customer-events", express.text({ type: () => true, limit: WEB_TRACKING_BODY_LIMIT }), (req, res) => {
      const batch = JSON.parse(String(req.body)) as { events: unknown[] };
      res.vary("Origin").setHeader("Access-Control-Allow-Origin", req.get("origin") ?? "*");
      res.json({ success: true, accepted: batch.events.length, duplicates: 0 });
    });
    const bareServer = await listen(bareApp);
    servers.push(bareServer);

    let productAnswers = 0;
    let productRuns = 0;
    let baselineAnswers = 0;
    let runs = 0;
    const plan = (label: string, server: Server, run = `r${(runs += 1)}`): LoadPlan => ({
      label,
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${paths[0]}`,
      method: "POST",
      connections,
      keys: [],
      paths,
      bodies: bodies.map((body) => body.replaceAll("{run}", run)),
      headers: { "content-type": "text/plain;charset=UTF-8", origin: ORIGIN },
      clientAddresses: CLIENT_ADDRESSES,
      answers: [ANSWER],
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

    process.stderr.write(
      `${NAME}: ${SITES} sites x ${VISITORS_PER_SITE} visitors, ${connections} connections from a separate process, warm-up ${warmup} s, ${rounds} x ${duration} s per side\n`,
    );
    await baseline(warmup, true);
    await product(warmup, true);
    const comparison = await alternate(
      NAME,
      rounds,
      "batches/s",
      () => baseline(duration),
      () => product(duration),
    );

    // Every answered batch's events are stored (and at most those of the requests in flight when a
    // run stopped besides), on the sites' own contacts; both sides logged every answer.
    for (const server of servers.splice(0)) await close(server);
    const stored = Number((await runtime.knex("custom_events").whereIn("company_id", companies).count({ n: "*" }).first())!.n);
    const inFlight = connections * productRuns;
    if (stored < productAnswers * EVENTS_PER_BATCH || stored > (productAnswers + inFlight) * EVENTS_PER_BATCH) {
      throw new Error(`bench ${NAME}: ${stored} events stored for ${productAnswers} batches answered`);
    }
    const contacts = Number((await runtime.knex("subscribers").whereIn("company_id", companies).count({ n: "*" }).first())!.n);
    if (contacts !== SITES * VISITORS_PER_SITE) throw new Error(`bench ${NAME}: ${contacts} contacts for ${SITES * VISITORS_PER_SITE} visitors`);
    await flushed(productLog);
    await flushed(baselineLog);
    for (const [side, file, answered] of [
      ["product", "product.log", productAnswers],
      ["baseline", "baseline.log", baselineAnswers],
    ] as const) {
      const lines = linesIn(join(dir, file));
      if (lines < answered) throw new Error(`bench ${NAME}: the ${side} logged ${lines} lines for ${answered} answers`);
    }
    process.stderr.write(`  ${stored} events stored for ${productAnswers} batches\n`);
    return ratioLine(NAME, "batches/s", comparison, GOAL, [
      "LOG_LEVEL=info to a file",
      `${connections} connections`,
      `${EVENTS_PER_BATCH} events a batch`,
      "TRUST_PROXY=loopback",
    ]);
  } finally {
    await load.close();
    for (const server of servers) await close(server);
    await runtime.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
