import { request as httpRequest } from "node:http";
import test from "ava";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";

const sqlite = dialects()[0]!;
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

test("a client hammering far past its limit is not locked out: refused requests spend nothing, and the next second serves it", async (t) => {
  const api = await apiFixture(t, sqlite);
  const acme = await createCompanyFixture(api.runtime.container);
  // 400 at once: 20 a second pass; the hundreds refused would have spent the minute's 300.
  const burst = await Promise.all(Array.from({ length: 400 }, () => api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey })));
  const statuses = burst.map((r) => r.status);
  t.is(count(statuses, 200) + count(statuses, 429), 400);
  t.true(count(statuses, 429) > 100, statuses.join(","));
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const later = await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey });
  t.is(later.status, 200);
});

test("a company's ceiling spans all of its keys: past it every key gets 429 naming the company, other companies go on", async (t) => {
  const api = await apiFixture(t, sqlite, { capacity: { companyPerMinute: 5 } });
  const acme = await createCompanyFixture(api.runtime.container);
  const second = await createMemberKeyFixture(api.runtime.container, acme.companyId, { role: "owner" });
  const other = await createCompanyFixture(api.runtime.container);
  const statuses: number[] = [];
  for (const key of [acme.ownerKey, second.key, acme.ownerKey, second.key, acme.ownerKey])
    statuses.push((await api.call("GET", "/api/v1/subscribers/me", { key })).status);
  t.deepEqual(statuses, [200, 200, 200, 200, 200]);
  const refused = await api.call("GET", "/api/v1/subscribers/me", { key: second.key });
  t.is(refused.status, 429);
  t.regex(refused.body.error, /^Rate limit exceeded: 5 requests per minute per company\. Retry after \d+ seconds?\.$/);
  t.true(Number(refused.headers.get("retry-after")) >= 1);
  t.is(refused.headers.get("ratelimit-policy"), "5;w=60");
  t.is((await api.call("GET", "/api/v1/subscribers/me", { key: other.ownerKey })).status, 200);
});

test("refused keys count against the client's address: past the limit it gets 429 before any key is looked up", async (t) => {
  const api = await apiFixture(t, sqlite, { capacity: { authFailuresPerMinute: 3 } });
  const acme = await createCompanyFixture(api.runtime.container);
  const wrong = "lcsk_0000000000000000000000000000000000000";
  for (let i = 0; i < 3; i++) t.is((await api.call("GET", "/api/v1/subscribers/me", { key: wrong })).status, 401);
  const fourth = await api.call("GET", "/api/v1/subscribers/me", { key: wrong });
  t.is(fourth.status, 429);
  t.regex(fourth.body.error, /^Too many failed authentication attempts: 3 per minute per client address\. Retry after \d+ seconds?\.$/);
  t.true(Number(fourth.headers.get("retry-after")) >= 1);
  // Even a good key waits: the address is refused before its key is tried.
  t.is((await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey })).status, 429);
  // A request without any key tried nothing, and counts for nothing.
  t.is((await api.call("GET", "/api/v1/openapi.json")).status, 200);
});

test("while the server is behind, new API requests are shed with 503 before any work; /health still answers", async (t) => {
  // A threshold below any real delay: every API request finds the server behind.
  const api = await apiFixture(t, sqlite, { capacity: { shedDbQueue: 0, shedEventLoopDelayMs: 0.000001 } });
  const acme = await createCompanyFixture(api.runtime.container);
  // The first request starts the delay monitor; half a second later it has a window to report.
  await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey });
  await new Promise((resolve) => setTimeout(resolve, 600));
  const shed = await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey });
  t.is(shed.status, 503);
  t.deepEqual(shed.body, { success: false, error: "The service is busy. Please retry shortly.", code: "SERVICE_UNAVAILABLE" });
  t.is(shed.headers.get("retry-after"), "5");
  const post = await api.call("POST", "/api/v1/subscribers", { key: acme.ownerKey, body: { email: "a@example.com" } });
  t.is(post.status, 503);
  t.is(post.headers.get("retry-after"), null, "never advertised for POST");
  t.is((await api.call("GET", "/health")).status, 200);
});

/** A POST whose body has not all arrived: admitted, it holds its place until `finish()` sends the rest. */
function stalledPost(url: string, key: string, body: object) {
  const text = JSON.stringify(body);
  const request = httpRequest(`${url}/api/v1/subscribers`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) },
  });
  const answered = new Promise<number>((resolve, reject) => {
    request.on("response", (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("error", reject);
  });
  // A test that fails before it finishes the request must not also crash on the hang-up that follows.
  answered.catch(() => undefined);
  request.write(text.slice(0, 5));
  return { answered, finish: () => request.end(text.slice(5)) };
}

test("a company with its places in flight taken gets 429 with Retry-After; another company is served meanwhile", async (t) => {
  const api = await apiFixture(t, sqlite, { capacity: { companyMaxInFlight: 1 } });
  const acme = await createCompanyFixture(api.runtime.container);
  const other = await createCompanyFixture(api.runtime.container);
  const slow = stalledPost(api.server.url, acme.ownerKey, { email: "slow@example.com" });
  // The stalled request is admitted once its headers are read; wait until it holds its place.
  let refused = await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey });
  for (let i = 0; refused.status === 200 && i < 50; i++) refused = await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey });
  t.is(refused.status, 429);
  t.deepEqual(refused.body, { success: false, error: "Too many requests in progress: at most 1 at once per company. Retry after 1 second." });
  t.is(refused.headers.get("retry-after"), "1");
  t.is(refused.headers.get("ratelimit-policy"), "20;w=1, 300;w=60", "the key's budget, which the refusal did not spend");
  t.is(refused.headers.get("ratelimit-limit"), "20");
  t.is((await api.call("GET", "/api/v1/subscribers/me", { key: other.ownerKey })).status, 200);
  slow.finish();
  t.is(await slow.answered, 200);
  t.is((await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey })).status, 200, "the place was given back");
});

test("with every place at work taken, a request waits its turn instead of being refused", async (t) => {
  const api = await apiFixture(t, sqlite, { capacity: { serverConcurrency: 1 } });
  const acme = await createCompanyFixture(api.runtime.container);
  const other = await createCompanyFixture(api.runtime.container);
  const slow = stalledPost(api.server.url, acme.ownerKey, { email: "slow@example.com" });
  await new Promise((resolve) => setTimeout(resolve, 200));
  let waited = false;
  const waiting = api.call("GET", "/api/v1/subscribers/me", { key: other.ownerKey }).then((response) => {
    waited = true;
    return response;
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  t.false(waited, "the other company's request waits while the only place is taken");
  slow.finish();
  t.is(await slow.answered, 200);
  t.is((await waiting).status, 200);
});

test("once a company is over its ceiling, its keys are refused before they are looked up: the database is not asked", async (t) => {
  const api = await apiFixture(t, sqlite, { capacity: { companyPerMinute: 2 } });
  const acme = await createCompanyFixture(api.runtime.container);
  for (let i = 0; i < 2; i++) t.is((await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey })).status, 200);
  t.is((await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey })).status, 429);
  let queries = 0;
  const count = () => (queries += 1);
  api.runtime.knex.on("query", count);
  t.teardown(() => api.runtime.knex.off("query", count));
  const again = await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey });
  t.is(again.status, 429);
  t.regex(again.body.error, /^Rate limit exceeded: 2 requests per minute per company\. Retry after \d+ seconds?\.$/);
  t.true(Number(again.headers.get("retry-after")) >= 1);
  t.is(queries, 0);
  // Another company's key is looked up and served as always.
  const other = await createCompanyFixture(api.runtime.container);
  t.is((await api.call("GET", "/api/v1/subscribers/me", { key: other.ownerKey })).status, 200);
  // A wrong key is still looked up (and refused as invalid), whatever it resembles.
  t.is((await api.call("GET", "/api/v1/subscribers/me", { key: `${acme.ownerKey}x` })).status, 401);
});

for (const dialect of dialects()) {
  test(`${dialect.name}: while a company's places in flight are all taken, its keys are refused before they are looked up, with the key's headers`, async (t) => {
    const api = await apiFixture(t, dialect, { capacity: { companyMaxInFlight: 1 } });
    const acme = await createCompanyFixture(api.runtime.container);
    const slow = stalledPost(api.server.url, acme.ownerKey, { email: "slow@example.com" });
    let refused = await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey });
    for (let i = 0; refused.status === 200 && i < 50; i++) refused = await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey });
    t.is(refused.status, 429);
    // Past the key's one-second window: its headers still come from what this server counted.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    let queries = 0;
    const countQuery = () => (queries += 1);
    api.runtime.knex.on("query", countQuery);
    t.teardown(() => api.runtime.knex.off("query", countQuery));
    const again = await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey });
    t.is(again.status, 429);
    t.deepEqual(again.body, { success: false, error: "Too many requests in progress: at most 1 at once per company. Retry after 1 second." });
    t.is(again.headers.get("retry-after"), "1");
    t.is(again.headers.get("ratelimit-policy"), "20;w=1, 300;w=60");
    t.is(again.headers.get("ratelimit-limit"), "20", "the window closest to running out speaks");
    t.true(Number(again.headers.get("ratelimit-remaining")) <= 20);
    t.is(queries, 0, "neither the key nor its counters were read");
    api.runtime.knex.off("query", countQuery);
    // A wrong key is still looked up and refused as invalid, whatever it resembles.
    t.is((await api.call("GET", "/api/v1/subscribers/me", { key: `${acme.ownerKey}x` })).status, 401);
    slow.finish();
    t.is(await slow.answered, 200);
    t.is(
      (await api.call("GET", "/api/v1/subscribers/me", { key: acme.ownerKey })).status,
      200,
      "once the place is given back, the key is looked up and served",
    );
  });
}
