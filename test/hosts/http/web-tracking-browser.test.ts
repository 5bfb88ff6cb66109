import test, { type ExecutionContext } from "ava";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { createCompanyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { browserTest, launchBrowser } from "../../helpers/browser.js";
import { dialects } from "../../helpers/databases.js";
import { BASE_URL } from "../../helpers/runtime.js";

interface Site {
  readonly port: number;
  /** Serves `html` at `path` on both loopback names: 127.0.0.1 (allowed by the key) and localhost (not). */
  page(path: string, html: string): void;
}

/** A company's website on loopback, another origin than the service's. */
async function site(t: ExecutionContext): Promise<Site> {
  const pages = new Map<string, string>();
  const server = createServer((req, res) => {
    const html = pages.get(new URL(req.url ?? "/", "http://site").pathname);
    res.writeHead(html ? 200 : 404, { "content-type": "text/html; charset=utf-8" }).end(html ?? "not found");
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as AddressInfo).port, page: (path, html) => void pages.set(path, html) };
}

const document = (snippet: string, commands: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${snippet}</head><body><h1>Shop</h1><script>${commands}</script></body></html>`;

interface StoredEvent {
  readonly email: string;
  readonly name: string;
  readonly properties: Record<string, unknown>;
}

async function storedEvents(api: ApiFixture, company: CompanyFixture): Promise<StoredEvent[]> {
  const rows = await api.runtime
    .knex("custom_events")
    .join("subscribers", "subscribers.id", "custom_events.subscriber_id")
    .where({ "custom_events.company_id": company.companyId, "custom_events.source": "web" })
    .orderBy([{ column: "custom_events.received_at" }, { column: "custom_events.id" }])
    .select("subscribers.email", "custom_events.name", "custom_events.properties");
  return rows.map((row) => ({
    email: row.email,
    name: row.name,
    properties: typeof row.properties === "string" ? JSON.parse(row.properties) : row.properties,
  }));
}

/** Polls until `done` holds for the company's web events (the script batches and sends on its own time). */
async function eventually(api: ApiFixture, company: CompanyFixture, done: (events: StoredEvent[]) => boolean, timeoutMs = 15_000): Promise<StoredEvent[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const events = await storedEvents(api, company);
    if (done(events) || Date.now() > until) return events;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function open(page: Page, url: string, errors: string[]): Promise<void> {
  page.on("pageerror", (error) => errors.push(error.message));
  await page.goto(url);
  await page.waitForFunction(() => (globalThis as unknown as { lifecycle?: { loaded?: boolean } }).lifecycle?.loaded === true);
}

// One dialect is enough to drive a browser: the storage under it is tested on both by web-tracking.test.ts.
const [dialect] = dialects();

browserTest(test)(
  "Chromium: the install snippet sends page, track and commerce events once each to the identified contact; another site is refused; reset starts a new visitor",
  async (t) => {
    const api = await apiFixture(t, dialect!);
    const company = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const web = await site(t);
    const allowedOrigin = `http://127.0.0.1:${web.port}`;
    const call = (method: string, path: string, body?: unknown) => api.call(method, path, { key: company.ownerKey, body });
    const created = await call("POST", "/api/v1/web-tracking-keys", { name: "Shop", allowedOrigins: [allowedOrigin] });
    t.is(created.status, 200, JSON.stringify(created.body));
    const key = created.body.key;
    // The snippet as the API gives it, pointing at this test's server instead of the configured base URL.
    const snippet = (key.installSnippet as string).replaceAll(BASE_URL, api.server.url);
    const token = async (email: string) =>
      (await call("POST", "/api/v1/web-tracking-identities", { email, publicKey: key.publicKey })).body.identityToken as string;
    const [ada, bob, cy] = [await token("ada@example.com"), await token("bob@example.com"), await token("cy@example.com")];
    const browser = await launchBrowser(t);
    const errors: string[] = [];

    // 1. Commands issued before the script arrives and before identify wait in the browser; after identify all arrive once each.
    web.page(
      "/shop",
      document(
        snippet,
        `lifecycle.page(); lifecycle.track("signed_in", { method: "password" }); lifecycle.viewedProduct({ productId: "sku-1", price: 2999 });`,
      ),
    );
    const shop = await (await browser.newContext()).newPage();
    await open(shop, `${allowedOrigin}/shop`, errors);
    await settle(800);
    t.deepEqual(await storedEvents(api, company), [], "nothing leaves the browser before identify");
    await shop.evaluate((identityToken) => {
      const lifecycle = (globalThis as unknown as { lifecycle: Record<string, (...args: unknown[]) => void> }).lifecycle;
      lifecycle.identify!("ada@example.com", identityToken);
      lifecycle.addedToCart!({ productId: "sku-1", quantity: 1 });
      lifecycle.track!("ecommerce.order_placed", { orderId: "1001", total: 2999 });
      lifecycle.searched!("shirts");
      lifecycle.page!({ title: "Thank you" });
    }, ada);
    const expected = [
      ["ada@example.com", "web.page_viewed"],
      ["ada@example.com", "signed_in"],
      ["ada@example.com", "ecommerce.product_viewed"],
      ["ada@example.com", "ecommerce.added_to_cart"],
      ["ada@example.com", "ecommerce.order_placed"],
      ["ada@example.com", "ecommerce.searched"],
      ["ada@example.com", "web.page_viewed"],
    ];
    await eventually(api, company, (events) => events.length >= expected.length);
    await settle(1_500);
    const arrived = await storedEvents(api, company);
    t.deepEqual(
      arrived.map((event) => [event.email, event.name]),
      expected,
    );
    t.like(arrived[0]!.properties, { path: "/shop", title: "Shop", url: `${allowedOrigin}/shop` });
    t.like(arrived[4]!.properties, { orderId: "1001", total: 2999 });
    t.like(arrived[5]!.properties, { query: "shirts" });
    t.like(arrived[6]!.properties, { title: "Thank you" });
    const visitor = arrived[0]!.properties.anonymousId;
    t.is(typeof visitor, "string");
    t.true(arrived.every((event) => event.properties.anonymousId === visitor));

    // 2. The same snippet on a site the key does not allow: refused, nothing stored, nothing thrown into the page.
    web.page("/elsewhere", document(snippet, `lifecycle.identify("bob@example.com", ${JSON.stringify(bob)}); lifecycle.track("should_not_arrive");`));
    const elsewhere = await (await browser.newContext()).newPage();
    // The browser either shows the 403 or, as the answer carries no CORS headers, only a failed request.
    const refused = new Promise<string>((resolve) => {
      elsewhere.on("response", (response) => {
        if (response.url().includes("/customer-events") && response.request().method() === "POST") resolve(`status ${response.status()}`);
      });
      elsewhere.on("requestfailed", (request) => {
        if (request.url().includes("/customer-events")) resolve("failed");
      });
    });
    await open(elsewhere, `http://localhost:${web.port}/elsewhere`, errors);
    t.true(["status 403", "failed"].includes(await refused), "the page's events were refused");
    await settle(500);
    t.false((await storedEvents(api, company)).some((event) => event.email === "bob@example.com"));

    // 3. reset(): what was tracked before it goes to the old contact; what follows waits for the next identify, as a new visitor.
    web.page(
      "/account",
      document(
        snippet,
        `lifecycle.identify("ada@example.com", ${JSON.stringify(ada)}); lifecycle.track("before_reset"); lifecycle.reset(); lifecycle.track("after_reset");`,
      ),
    );
    const account = await (await browser.newContext()).newPage();
    await open(account, `${allowedOrigin}/account`, errors);
    await eventually(api, company, (events) => events.some((event) => event.name === "before_reset"));
    await settle(800);
    t.false(
      (await storedEvents(api, company)).some((event) => event.name === "after_reset"),
      "after reset, events wait for identify",
    );
    await account.evaluate((identityToken) => {
      (globalThis as unknown as { lifecycle: { identify(email: string, token: string): void } }).lifecycle.identify("cy@example.com", identityToken);
    }, cy);
    const all = await eventually(api, company, (events) => events.some((event) => event.name === "after_reset"));
    const before = all.filter((event) => event.name === "before_reset");
    const after = all.filter((event) => event.name === "after_reset");
    t.deepEqual(
      [...before, ...after].map((event) => event.email),
      ["ada@example.com", "cy@example.com"],
    );
    t.not(after[0]!.properties.anonymousId, before[0]!.properties.anonymousId, "a new anonymous visitor");
    t.deepEqual(errors, [], "the script never threw into a page");
  },
);
