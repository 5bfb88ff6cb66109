import test, { type ExecutionContext } from "ava";
import { setTimeout } from "node:timers/promises";
import { gunzipSync } from "node:zlib";
import { ManualClock } from "../../../adapters/memory/manual-clock.js";
import { RateLimiter } from "../../../core/ports/rate-limiter.js";
import { servedScript, TRACKING_SCRIPT } from "../../../hosts/http/public/tracking-script.js";
import { BROWSER_COMMANDS } from "../../../core/web-tracking/install-snippet.js";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import type { Runtime } from "../../../hosts/runtime.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { call, type JsonResponse, type RequestOptions } from "../../helpers/http-client.js";
import { pacedCaller } from "../../helpers/paced-caller.js";
import { BASE_URL, listen, startTestRuntime, type TestServer } from "../../helpers/runtime.js";
import { createAndEnable, sequenceSession } from "../../helpers/sequence-session.js";

const KEYS = "/api/v1/web-tracking-keys";
const IDENTITIES = "/api/v1/web-tracking-identities";
const NOW = "2026-11-22T10:00:00.000Z";
const SHOP = "https://shop.example.com";

interface Session {
  readonly runtime: Runtime;
  readonly server: TestServer;
  readonly clock: ManualClock;
  readonly a: CompanyFixture;
  readonly b: CompanyFixture;
  call(method: string, path: string, options?: RequestOptions, company?: CompanyFixture): Promise<JsonResponse>;
}

/** The real app behind a trusted loopback proxy, so each test request may come from a visitor address of its own. */
async function session(t: ExecutionContext, dialect: Dialect): Promise<Session> {
  const database = await dialect.create();
  const clock = new ManualClock(NOW);
  const runtime = await startTestRuntime(database, clock);
  const server = await listen(runtime, { trustProxy: ["loopback"] });
  t.teardown(async () => {
    await server.close();
    await runtime.close();
    await database.drop();
  });
  const a = await createCompanyFixture(runtime.container, { name: "Acme" });
  const b = await createCompanyFixture(runtime.container, { name: "Beta" });
  // Company A's own calls go through paced owner keys: a long test asks more than 20 times a second on a fast machine.
  const paced = await pacedCaller({ runtime, call: (method, path, options) => call(server.url, method, path, options) }, a);
  return {
    runtime,
    server,
    clock,
    a,
    b,
    call: (method, path, options = {}, company = a) =>
      company === a && options.key === undefined ? paced(method, path, options) : call(server.url, method, path, { key: company.ownerKey, ...options }),
  };
}

let visitors = 0;
/** A fresh documentation address per request unless one is given, so the per-address budget only meets the test about it. */
const nextVisitor = () => `198.51.100.${(visitors++ % 250) + 1}`;

interface SendOptions {
  readonly origin?: string;
  /** In the query string, as the script sends it; null: none. */
  readonly publicKey?: string | null;
  readonly address?: string;
  readonly raw?: string;
  readonly method?: string;
  readonly headers?: Record<string, string>;
}

/** A request of the tracking script (text/plain JSON) to a key's endpoint. */
async function send(s: Session, endpoint: string, body: unknown, options: SendOptions = {}): Promise<JsonResponse> {
  const url = new URL(endpoint.replace(BASE_URL, s.server.url));
  if (options.publicKey) url.searchParams.set("publicKey", options.publicKey);
  const headers: Record<string, string> = {
    "content-type": "text/plain;charset=UTF-8",
    "x-forwarded-for": options.address ?? nextVisitor(),
    ...options.headers,
  };
  if (options.origin) headers.origin = options.origin;
  const method = options.method ?? "POST";
  const response = await fetch(url, { method, headers, ...(method === "POST" ? { body: options.raw ?? JSON.stringify(body) } : {}) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null };
}

async function createKey(s: Session, body: Record<string, unknown>, company?: CompanyFixture) {
  const created = await s.call("POST", KEYS, { body }, company);
  if (created.status !== 200) throw new Error(JSON.stringify(created.body));
  return created.body.key;
}

async function mint(s: Session, body: Record<string, unknown>, company?: CompanyFixture) {
  const minted = await s.call("POST", IDENTITIES, { body }, company);
  if (minted.status !== 200) throw new Error(JSON.stringify(minted.body));
  return minted.body;
}

const eventRows = (s: Session, companyId: string) =>
  s.runtime
    .knex("custom_events")
    .where({ company_id: companyId })
    .orderBy([{ column: "occurred_at" }, { column: "id" }]);
const props = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: web tracking ${title}`;

  test(name("keys: created with normalized origins, a snippet and an endpoint; listed newest first, read, changed and deleted"), async (t) => {
    const s = await session(t, dialect);
    const created = await s.call("POST", KEYS, {
      body: { name: "Shop", allowedOrigins: ["Shop.Example.com/", "https://shop.example.com:443/cart", "*.Example.org", "http://localhost:3000/"] },
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    const key = created.body.key;
    t.true(created.body.success);
    t.is(typeof created.body.message, "string");
    t.regex(key.id, /^wtk_/);
    t.regex(key.publicKey, /^lcpk_[A-Za-z0-9_-]{32}$/);
    const endpoint = `${BASE_URL}/api/webhooks/commerce/api/${s.a.companyId}/customer-events`;
    t.like(key, {
      name: "Shop",
      allowedOrigins: [SHOP, "https://*.example.org", "http://localhost:3000"],
      isActive: true,
      unrestricted: false,
      lastUsedAt: null,
      createdAt: NOW,
      updatedAt: NOW,
      endpoint,
    });
    t.false("warning" in key);

    // The snippet: a queue with the ten commands, then the async loader with its data attributes.
    const snippet: string = key.installSnippet;
    t.is(snippet.match(/<script/g)?.length, 2);
    for (const command of [
      "identify",
      "track",
      "viewedProduct",
      "addedToCart",
      "removedFromCart",
      "viewedCart",
      "viewedCollection",
      "searched",
      "page",
      "reset",
    ]) {
      t.true(snippet.includes(`"${command}"`), command);
    }
    t.true(
      snippet.includes(
        `<script async src="${BASE_URL}/tracking/v1.js" data-public-key="${key.publicKey}" data-company-id="${s.a.companyId}" data-endpoint-origin="${BASE_URL}"></script>`,
      ),
      snippet,
    );

    s.clock.advance(1_000);
    const open = await createKey(s, { name: "Anywhere" });
    t.like(open, { allowedOrigins: [], unrestricted: true });
    t.regex(open.warning, /unrestricted/);
    t.is((await createKey(s, { name: "Empty list", allowedOrigins: [] })).unrestricted, true);

    const listed = await s.call("GET", KEYS);
    t.is(listed.status, 200);
    t.deepEqual(
      listed.body.keys.map((k: { name: string }) => k.name),
      ["Empty list", "Anywhere", "Shop"],
    );
    t.deepEqual((await s.call("GET", `${KEYS}/${key.id}`)).body, { success: true, key });

    s.clock.advance(1_000);
    const renamed = await s.call("PATCH", `${KEYS}/${key.id}`, { body: { name: "Storefront", allowedOrigins: ["*.example.com"], isActive: false } });
    t.is(renamed.status, 200, JSON.stringify(renamed.body));
    t.like(renamed.body.key, {
      name: "Storefront",
      allowedOrigins: ["https://*.example.com"],
      isActive: false,
      publicKey: key.publicKey,
      updatedAt: "2026-11-22T10:00:02.000Z",
    });
    const opened = await s.call("PATCH", `${KEYS}/${key.id}`, { body: { allowedOrigins: null } });
    t.like(opened.body.key, { allowedOrigins: [], unrestricted: true, name: "Storefront", isActive: false });

    const deleted = await s.call("DELETE", `${KEYS}/${key.id}`);
    t.is(deleted.status, 200);
    t.deepEqual(deleted.body, { success: true, message: "Web tracking key deleted" });
    t.is((await s.call("GET", `${KEYS}/${key.id}`)).status, 404);
    t.is((await s.call("DELETE", `${KEYS}/${key.id}`)).status, 404);
    t.is((await s.call("GET", KEYS)).body.keys.length, 2);
  });

  test(name("keys: one bad origin refuses the whole request and saves nothing; bad types, scopes and other companies"), async (t) => {
    const s = await session(t, dialect);
    for (const allowedOrigins of [["shop.example.com", "not an origin"], ["ftp://example.com"], ["*.com"], ["https://user:pw@example.com"]]) {
      const refused = await s.call("POST", KEYS, { body: { name: "Shop", allowedOrigins } });
      t.is(refused.status, 400, JSON.stringify(allowedOrigins));
      t.deepEqual(Object.keys(refused.body), ["error"]);
      t.regex(refused.body.error, /^Invalid origin at allowedOrigins\.\d/);
    }
    const tooMany = await s.call("POST", KEYS, { body: { name: "Shop", allowedOrigins: Array.from({ length: 51 }, (_, i) => `s${i}.example.com`) } });
    t.is(tooMany.status, 400);
    t.deepEqual(tooMany.body, { error: "allowedOrigins may hold at most 50 entries" });
    t.is((await s.call("POST", KEYS, { body: { allowedOrigins: [] } })).status, 422);
    t.is((await s.call("POST", KEYS, { body: { name: "Shop", allowedOrigins: "shop.example.com" } })).status, 422);
    t.is((await s.call("POST", KEYS, { body: { name: "Shop", allowedOrigins: [5] } })).status, 422);
    t.deepEqual((await s.call("GET", KEYS)).body.keys, [], "nothing refused was saved");

    const key = await createKey(s, { name: "Shop", allowedOrigins: [SHOP] });
    const badPatch = await s.call("PATCH", `${KEYS}/${key.id}`, { body: { allowedOrigins: [SHOP, "bad origin"] } });
    t.is(badPatch.status, 400);
    t.deepEqual((await s.call("GET", `${KEYS}/${key.id}`)).body.key.allowedOrigins, [SHOP], "a refused change changes nothing");
    const empty = await s.call("PATCH", `${KEYS}/${key.id}`, { body: {} });
    t.is(empty.status, 400);
    t.is(empty.body.error, "Provide at least one of name, allowedOrigins, isActive");
    t.is((await s.call("PATCH", `${KEYS}/${key.id}`, { body: { isActive: "no" } })).status, 422);

    // Another company never sees, changes or deletes the key.
    t.is((await s.call("GET", `${KEYS}/${key.id}`, {}, s.b)).status, 404);
    t.deepEqual((await s.call("GET", `${KEYS}/${key.id}`, {}, s.b)).body, { success: false, error: "Web tracking key not found" });
    t.is((await s.call("PATCH", `${KEYS}/${key.id}`, { body: { name: "Mine" } }, s.b)).status, 404);
    t.is((await s.call("DELETE", `${KEYS}/${key.id}`, {}, s.b)).status, 404);
    t.deepEqual((await s.call("GET", KEYS, {}, s.b)).body.keys, []);
    t.is((await s.call("GET", `${KEYS}/${key.id}`)).body.key.name, "Shop");

    // Reading needs integrations:read, changing integrations:manage.
    const reader = await createMemberKeyFixture(s.runtime.container, s.a.companyId, { scopes: ["integrations:read"] });
    t.is((await call(s.server.url, "GET", KEYS, { key: reader.key })).status, 200);
    const refused = await call(s.server.url, "POST", KEYS, { key: reader.key, body: { name: "Nope" } });
    t.is(refused.status, 403);
    t.regex(refused.body.error, /missing required scope: integrations:manage/);
    t.is((await call(s.server.url, "DELETE", `${KEYS}/${key.id}`, { key: reader.key })).status, 403);
    t.is((await call(s.server.url, "GET", KEYS, {})).status, 401);
  });

  test(name("identity tokens: minted from the backend for a key and an address, creating the contact on first mint"), async (t) => {
    const s = await session(t, dialect);
    const key = await createKey(s, { name: "Shop", allowedOrigins: [SHOP] });
    const first = await s.call("POST", IDENTITIES, { body: { email: " Ada@Example.com ", publicKey: key.publicKey } });
    t.is(first.status, 200, JSON.stringify(first.body));
    t.like(first.body, { success: true, email: "ada@example.com", keyId: key.id, publicKey: key.publicKey, expiresAt: "2026-11-23T10:00:00.000Z" });
    t.regex(first.body.subscriberId, /^sub_/);
    t.is(typeof first.body.identityToken, "string");
    const contact = await s.runtime.knex("subscribers").where({ company_id: s.a.companyId, email: "ada@example.com" }).first();
    t.is(contact.id, first.body.subscriberId);

    const again = await mint(s, { email: "ada@example.com", keyId: key.id, ttlHours: 2 });
    t.is(again.subscriberId, first.body.subscriberId, "the contact is created once");
    t.is(again.expiresAt, "2026-11-22T12:00:00.000Z");

    t.deepEqual((await s.call("POST", IDENTITIES, { body: { email: "ada@example.com" } })).body, { success: false, error: "Provide publicKey or keyId" });
    t.is((await s.call("POST", IDENTITIES, { body: { email: "ada@example.com", publicKey: "lcpk_unknown" } })).status, 404);
    t.is((await s.call("POST", IDENTITIES, { body: { email: "ada@example.com", keyId: key.id, publicKey: "lcpk_other" } })).status, 404);
    t.is((await s.call("POST", IDENTITIES, { body: { email: "not-an-email", keyId: key.id } })).status, 422);
    t.is((await s.call("POST", IDENTITIES, { body: { email: "ada@example.com", keyId: key.id, ttlHours: 0 } })).status, 422);
    t.is((await s.call("POST", IDENTITIES, { body: { email: "ada@example.com", keyId: key.id, ttlHours: 721 } })).status, 422);
    // Another company cannot mint for this key, by ID or by public key, and learns nothing of it.
    const foreign = await s.call("POST", IDENTITIES, { body: { email: "eve@example.com", publicKey: key.publicKey } }, s.b);
    t.deepEqual(foreign.body, { success: false, error: "Web tracking key not found" });
    t.is((await s.call("POST", IDENTITIES, { body: { email: "eve@example.com", keyId: key.id } }, s.b)).status, 404);
    t.is(await s.runtime.knex("subscribers").where({ email: "eve@example.com" }).first(), undefined);

    t.is((await s.call("PATCH", `${KEYS}/${key.id}`, { body: { isActive: false } })).status, 200);
    const inactive = await s.call("POST", IDENTITIES, { body: { email: "ada@example.com", keyId: key.id } });
    t.is(inactive.status, 400);
    t.regex(inactive.body.error, /inactive/);

    const ingest = await createMemberKeyFixture(s.runtime.container, s.a.companyId, { scopes: ["subscribers:read"] });
    t.is((await call(s.server.url, "POST", IDENTITIES, { key: ingest.key, body: { email: "ada@example.com", keyId: key.id } })).status, 403);
  });

  test(name("events from an allowed page land once each as the identified contact's custom events"), async (t) => {
    const s = await session(t, dialect);
    const key = await createKey(s, { name: "Shop", allowedOrigins: [SHOP, "*.example.org"] });
    const ada = await mint(s, { email: "ada@example.com", publicKey: key.publicKey });
    const batch = {
      anonymousId: "visitor-1",
      identity: { email: "ada@example.com", token: ada.identityToken },
      events: [
        { id: "e1", type: "page", properties: { url: `${SHOP}/`, path: "/" }, occurredAt: "2026-11-22T09:58:00.000Z" },
        { id: "e2", type: "viewedProduct", properties: { productId: "sku-1", price: 2999 }, occurredAt: "2026-11-22T09:58:30.000Z" },
        { id: "e3", type: "track", name: "ecommerce.order_placed", properties: { orderId: "1001", total: 5998 }, occurredAt: "2026-11-22T09:59:00.000Z" },
        // A visitor's clock ahead of the server's: the event is dated on arrival.
        { id: "e4", type: "searched", properties: { query: "shirt" }, occurredAt: "2026-11-27T09:00:00.000Z" },
      ],
    };
    const sent = await send(s, key.endpoint, batch, { origin: SHOP, publicKey: key.publicKey });
    t.is(sent.status, 200, JSON.stringify(sent.body));
    t.deepEqual(sent.body, { success: true, accepted: 4, duplicates: 0 });
    t.is(sent.headers.get("access-control-allow-origin"), SHOP);
    t.regex(sent.headers.get("vary") ?? "", /Origin/);

    const rows = await eventRows(s, s.a.companyId);
    t.deepEqual(
      rows.map((row) => [row.subscriber_id, row.name, row.event_id, row.source, new Date(row.occurred_at).toISOString()]),
      [
        [ada.subscriberId, "web.page_viewed", "e1", "web", "2026-11-22T09:58:00.000Z"],
        [ada.subscriberId, "ecommerce.product_viewed", "e2", "web", "2026-11-22T09:58:30.000Z"],
        [ada.subscriberId, "ecommerce.order_placed", "e3", "web", "2026-11-22T09:59:00.000Z"],
        [ada.subscriberId, "ecommerce.searched", "e4", "web", NOW],
      ],
    );
    t.deepEqual(props(rows[2].properties), { anonymousId: "visitor-1", orderId: "1001", total: 5998 });

    // The same batch again (a retry, a beacon after a fetch): recorded once.
    const retried = await send(s, key.endpoint, batch, { origin: SHOP, publicKey: key.publicKey });
    t.deepEqual(retried.body, { success: true, accepted: 0, duplicates: 4 });
    t.is((await eventRows(s, s.a.companyId)).length, 4);

    // A subdomain at any depth of a wildcard entry; the key in the body instead of the query string.
    const deep = await send(
      s,
      key.endpoint,
      { ...batch, publicKey: key.publicKey, events: [{ id: "e5", type: "addedToCart", properties: { productId: "sku-2" } }] },
      { origin: "https://eu.blog.example.org", publicKey: null },
    );
    t.deepEqual(deep.body, { success: true, accepted: 1, duplicates: 0 });
    t.is((await s.call("GET", `${KEYS}/${key.id}`)).body.key.lastUsedAt, NOW);
    t.is((await eventRows(s, s.b.companyId)).length, 0);
  });

  test(name("events from a page the key does not allow are refused, and the preflight says so"), async (t) => {
    const s = await session(t, dialect);
    const key = await createKey(s, { name: "Shop", allowedOrigins: [SHOP, "*.example.org"] });
    const ada = await mint(s, { email: "ada@example.com", publicKey: key.publicKey });
    const batch = { identity: { email: "ada@example.com", token: ada.identityToken }, events: [{ id: "x1", type: "track", name: "clicked" }] };
    for (const origin of ["https://evil.test", "https://example.org", "http://shop.example.com", "https://shop.example.com:8443", undefined]) {
      const refused = await send(s, key.endpoint, batch, { ...(origin ? { origin } : {}), publicKey: key.publicKey });
      t.is(refused.status, 403, String(origin));
      t.deepEqual(refused.body, { success: false, error: "Origin not allowed for this web tracking key" });
      t.is(refused.headers.get("access-control-allow-origin"), null, "the refused page may not read the answer");
    }
    t.is((await eventRows(s, s.a.companyId)).length, 0);

    const preflight = (origin: string, publicKey: string | null = key.publicKey) =>
      send(s, key.endpoint, undefined, {
        method: "OPTIONS",
        origin,
        publicKey,
        headers: { "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
      });
    const allowed = await preflight("https://news.example.org");
    t.is(allowed.status, 204);
    t.is(allowed.headers.get("access-control-allow-origin"), "https://news.example.org");
    t.regex(allowed.headers.get("access-control-allow-methods") ?? "", /POST/);
    t.regex(allowed.headers.get("access-control-allow-headers") ?? "", /Content-Type/i);
    const denied = await preflight("https://evil.test");
    t.is(denied.status, 403);
    t.is(denied.headers.get("access-control-allow-origin"), null);
    t.is((await preflight(SHOP, null)).status, 204, "without a key named, any active key of the company decides");
    t.is((await preflight("https://evil.test", null)).status, 403);

    // An unrestricted key takes events from any page, and from a server with no Origin at all.
    const open = await createKey(s, { name: "Anywhere" });
    const bob = await mint(s, { email: "bob@example.com", publicKey: open.publicKey });
    const fromServer = await send(
      s,
      open.endpoint,
      { identity: { email: "bob@example.com", token: bob.identityToken }, events: [{ id: "b1", type: "viewedCart" }] },
      { publicKey: open.publicKey },
    );
    t.deepEqual(fromServer.body, { success: true, accepted: 1, duplicates: 0 });
    const anyPage = await send(
      s,
      open.endpoint,
      { identity: { email: "bob@example.com", token: bob.identityToken }, events: [{ id: "b2", type: "viewedCollection" }] },
      { origin: "https://evil.test", publicKey: open.publicKey },
    );
    t.is(anyPage.status, 200);
    t.is(anyPage.headers.get("access-control-allow-origin"), "https://evil.test");
  });

  test(
    name("keys and identity tokens are checked: unknown, inactive, deleted, other company's, forged, expired, other key's or other address's"),
    async (t) => {
      const s = await session(t, dialect);
      const key = await createKey(s, { name: "Shop", allowedOrigins: [SHOP] });
      const other = await createKey(s, { name: "Blog", allowedOrigins: [SHOP] });
      const ada = await mint(s, { email: "ada@example.com", publicKey: key.publicKey, ttlHours: 1 });
      const otherKeys = await mint(s, { email: "ada@example.com", publicKey: other.publicKey });
      const event = (id: string) => ({ id, type: "track", name: "clicked" });
      const post = (body: Record<string, unknown>, publicKey: string | null = key.publicKey, endpoint: string = key.endpoint) =>
        send(s, endpoint, { events: [event("k1")], ...body }, { origin: SHOP, publicKey });
      const identity = { email: "ada@example.com", token: ada.identityToken };

      t.deepEqual((await post({ identity }, null)).body, { success: false, error: "publicKey is required" });
      t.deepEqual((await post({ identity }, "lcpk_made_up")).body, { success: false, error: "Invalid public key" });
      const bKey = await createKey(s, { name: "Beta shop", allowedOrigins: [SHOP] }, s.b);
      t.deepEqual(
        (await post({ identity }, key.publicKey, bKey.endpoint)).body,
        { success: false, error: "Invalid public key" },
        "a key works only at its own company's endpoint",
      );

      const noIdentity = await post({});
      t.is(noIdentity.status, 401);
      t.regex(noIdentity.body.error, /identity token is required/);
      t.is(noIdentity.headers.get("access-control-allow-origin"), SHOP, "an admitted page can read why");
      const invalid = { success: false, error: "Invalid or expired identity token" };
      const [body, mac] = ada.identityToken.split(".");
      const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
      const forgedBody = Buffer.from(JSON.stringify({ ...claims, e: "bob@example.com" })).toString("base64url");
      t.deepEqual((await post({ identity: { email: "bob@example.com", token: `${forgedBody}.${mac}` } })).body, invalid, "a changed token");
      t.deepEqual((await post({ identity: { email: "ada@example.com", token: `${body}.${mac.slice(0, -2)}AA` } })).body, invalid, "a made-up signature");
      t.deepEqual((await post({ identity: { email: "bob@example.com", token: ada.identityToken } })).body, invalid, "another address");
      t.deepEqual((await post({ identity: { email: "ada@example.com", token: otherKeys.identityToken } })).body, invalid, "another key's token");
      t.is((await post({ identity })).status, 200);

      t.is((await s.call("PATCH", `${KEYS}/${key.id}`, { body: { isActive: false } })).status, 200);
      t.deepEqual((await post({ identity, events: [event("k2")] })).body, { success: false, error: "Web tracking key is inactive" });
      t.is((await s.call("PATCH", `${KEYS}/${key.id}`, { body: { isActive: true } })).status, 200);
      t.is((await post({ identity, events: [event("k3")] })).status, 200, "turned back on, its tokens work again");

      s.clock.advance(61 * 60_000);
      t.deepEqual((await post({ identity, events: [event("k4")] })).body, invalid, "an expired token");
      t.is((await s.call("DELETE", `${KEYS}/${other.id}`)).status, 200);
      t.deepEqual((await post({ identity: { email: "ada@example.com", token: otherKeys.identityToken } }, other.publicKey)).body, {
        success: false,
        error: "Invalid public key",
      });
      t.deepEqual(
        (await eventRows(s, s.a.companyId)).map((row) => row.event_id),
        ["k1", "k3"],
      );
    },
  );

  test(name("bodies are bounded: malformed, too many events, wrong types, reserved names, a track without a name, too large"), async (t) => {
    const s = await session(t, dialect);
    const key = await createKey(s, { name: "Shop", allowedOrigins: [SHOP] });
    const ada = await mint(s, { email: "ada@example.com", publicKey: key.publicKey });
    const identity = { email: "ada@example.com", token: ada.identityToken };
    const post = (body: unknown, raw?: string) =>
      send(s, key.endpoint, body, { origin: SHOP, publicKey: key.publicKey, ...(raw !== undefined ? { raw } : {}) });

    const malformed = await post(undefined, "{not json");
    t.is(malformed.status, 400);
    t.deepEqual(malformed.body, { success: false, error: "Malformed JSON in request body" });
    const many = await post({ identity, events: Array.from({ length: 51 }, (_, i) => ({ id: `m${i}`, type: "page" })) });
    t.is(many.status, 422);
    t.regex(many.body.error, /events must contain at most 50 items/);
    t.is((await post({ identity, events: [] })).status, 422);
    t.is((await post({ identity, events: [{ id: "u1", type: "purchase" }] })).status, 422);
    t.is((await post({ identity, events: [{ id: "u2", type: "track", name: "x", properties: [1] }] })).status, 422);
    const poisoned = await post(
      undefined,
      `{"identity":${JSON.stringify(identity)},"events":[{"id":"p1","type":"track","name":"x","properties":{"__proto__":{"admin":true}}}]}`,
    );
    t.is(poisoned.status, 422);
    t.regex(poisoned.body.error, /__proto__/);
    t.deepEqual((await post({ identity, events: [{ id: "n1", type: "track" }] })).body, { success: false, error: "events.0.name is required for track" });
    const reserved = await post({
      identity,
      events: [
        { id: "r1", type: "page" },
        { id: "r2", type: "track", name: "subscriber.confirmed" },
      ],
    });
    t.is(reserved.status, 400);
    t.regex(reserved.body.error, /^events\.1\.name/);
    const large = await post({ identity, events: [{ id: "l1", type: "track", name: "x", properties: { blob: "x".repeat(70_000) } }] });
    t.is(large.status, 413);
    t.is((await eventRows(s, s.a.companyId)).length, 0, "nothing of a refused batch is stored");
  });

  test(name("one client address is limited on its own; the others go on"), async (t) => {
    const s = await session(t, dialect);
    const key = await createKey(s, { name: "Shop", allowedOrigins: [SHOP] });
    let limited: JsonResponse | undefined;
    for (let i = 0; i < 130 && !limited; i++) {
      const response = await send(s, key.endpoint, { events: [] }, { origin: SHOP, publicKey: key.publicKey, address: "203.0.113.9" });
      if (response.status === 429) limited = response;
      else t.is(response.status, 422);
    }
    t.truthy(limited, "the address met its budget");
    t.regex(limited!.body.error, /^Rate limit exceeded: \d+ requests per (second|minute) per client address/);
    t.true(Number(limited!.headers.get("retry-after")) >= 1);
    t.is((await send(s, key.endpoint, { events: [] }, { origin: SHOP, publicKey: key.publicKey, address: "203.0.113.10" })).status, 422);
  });

  test(name("one key is limited across all its visitors; another key goes on"), async (t) => {
    const s = await session(t, dialect);
    const key = await createKey(s, { name: "Shop", allowedOrigins: [SHOP] });
    const other = await createKey(s, { name: "Blog", allowedOrigins: [SHOP] });
    // Other visitors have spent 190 of this second's 200. The counts are judged only for a burst that
    // was answered before that second ended (a slow machine tries again in a fresh second).
    const limiter = s.runtime.container.get<RateLimiter>(RateLimiter);
    let statuses: number[] | undefined;
    let limited: JsonResponse | undefined;
    for (let attempt = 1; attempt <= 20 && !statuses; attempt++) {
      const spent = await limiter.consume("webTrackingKey", key.id, 190);
      const secondEnds = Date.now() + spent.resetMs;
      if (spent.remaining !== 10) {
        await setTimeout(spent.resetMs + 10);
        continue;
      }
      const responses = await Promise.all(Array.from({ length: 20 }, () => send(s, key.endpoint, { events: [] }, { origin: SHOP, publicKey: key.publicKey })));
      if (Date.now() < secondEnds) {
        statuses = responses.map((response) => response.status).sort();
        limited = responses.find((response) => response.status === 429);
      } else await setTimeout(Math.max(0, secondEnds - Date.now()) + 10);
    }
    t.deepEqual(statuses, [...Array<number>(10).fill(422), ...Array<number>(10).fill(429)], "the second's last 10 requests are answered, the rest refused");
    t.regex(limited!.body.error, /^Rate limit exceeded: 200 requests per second per web tracking key/);
    t.true(Number(limited!.headers.get("retry-after")) >= 1);
    t.is((await send(s, other.endpoint, { events: [] }, { origin: SHOP, publicKey: other.publicKey })).status, 422, "another key is not limited");
  });

  test(name("the tracking script is served small, cacheable and gzipped"), async (t) => {
    const s = await session(t, dialect);
    const gzipped = await fetch(`${s.server.url}/tracking/v1.js`, { headers: { "accept-encoding": "gzip" } });
    t.is(gzipped.status, 200);
    t.is(gzipped.headers.get("content-type"), "text/javascript; charset=utf-8");
    t.is(gzipped.headers.get("content-encoding"), "gzip");
    t.regex(gzipped.headers.get("cache-control") ?? "", /^public, max-age=\d+/);
    const text = await gzipped.text();
    t.is(text, TRACKING_SCRIPT);
    for (const command of BROWSER_COMMANDS) t.true(text.includes(`"${command}"`), command);

    const served = servedScript();
    t.true(served.gzipped.length < 5 * 1024, `gzipped size ${served.gzipped.length} bytes`);
    t.is(gunzipSync(served.gzipped).toString("utf8"), TRACKING_SCRIPT);
    t.log(`tracking script: ${served.text.length} bytes, ${served.gzipped.length} bytes gzipped`);

    const etag = gzipped.headers.get("etag")!;
    const again = await fetch(`${s.server.url}/tracking/v1.js`, { headers: { "if-none-match": etag } });
    t.is(again.status, 304);
    const plain = await fetch(`${s.server.url}/tracking/v1.js`, { headers: { "accept-encoding": "identity" } });
    t.is(plain.headers.get("content-encoding"), null);
    t.is(await plain.text(), TRACKING_SCRIPT);
  });

  test(name("a web event starts the sequences waiting for it, through the same entry point as API events"), async (t) => {
    const s = await sequenceSession(t, dialect);
    await createAndEnable(s, {
      name: "Thanks",
      trigger: "event_received",
      eventName: "ecommerce.order_placed",
      steps: [{ subject: "Thanks for your order", html: "<p>Hi</p>" }],
    });
    const key = (await s.call("POST", KEYS, { body: { name: "Shop" } })).body.key;
    const minted = (await s.call("POST", IDENTITIES, { body: { email: "ada@example.com", publicKey: key.publicKey } })).body;
    const response = await fetch(`${key.endpoint.replace(BASE_URL, s.api.server.url)}?publicKey=${key.publicKey}`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: SHOP },
      body: JSON.stringify({
        identity: { email: "ada@example.com", token: minted.identityToken },
        events: [{ id: "o1", type: "track", name: "ecommerce.order_placed", properties: { total: 100 } }],
      }),
    });
    t.is(response.status, 200);
    await s.runJobs();
    t.deepEqual(s.received(), { "ada@example.com": ["Thanks for your order"] });
  });
}
