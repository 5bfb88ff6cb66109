import test from "ava";
import { createCompanyFixture } from "../../../fixtures/companies.js";
import { ATTRIBUTE_LIMITS } from "../../../core/shared/bounded-json.js";
import { MAX_INPUT_DEPTH } from "../../../core/shared/input-bounds.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";

/** `{"a":{"a":...}}` nested `levels` deep, written as text (JSON.stringify would recurse). */
const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;

for (const dialect of dialects()) {
  test(`${dialect.name}: input past the shared bounds is a 422 naming the field, and nothing is stored`, async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container);
    const post = (body: unknown) => api.call("POST", "/api/v1/subscribers", { key: acme.ownerKey, body });

    const cases: Array<[string, unknown, string]> = [
      ["NUL", { email: "nul@example.com", firstName: "A\u0000B" }, "firstName"],
      ["lone surrogate", { email: "sur@example.com", lastName: "x\uD800y" }, "lastName"],
      ["__proto__", JSON.parse('{"email":"proto@example.com","customAttributes":{"__proto__":{"admin":true}}}'), "customAttributes.__proto__"],
      ["constructor", { email: "ctor@example.com", customAttributes: { constructor: "x" } }, "customAttributes.constructor"],
    ];
    for (const [name, body, path] of cases) {
      const response = await post(body);
      t.is(response.status, 422, name);
      t.is(response.body.success, false, name);
      t.is(response.body.errors[0].path, path, name);
    }

    for (const levels of [MAX_INPUT_DEPTH + 5, 1_000, 10_000]) {
      const body = `{"email":"deep@example.com","customAttributes":${nested(levels)}}`;
      const response = await api.call("POST", "/api/v1/subscribers", { key: acme.ownerKey, rawBody: body });
      t.is(response.status, 422, `${levels} levels`);
      t.regex(response.body.error, /more than 32 levels deep/);
      t.true(String(response.body.errors[0].path).startsWith("customAttributes.a"));
    }

    const list = await api.call("GET", "/api/v1/subscribers", { key: acme.ownerKey });
    t.is(list.status, 200);
    t.deepEqual(list.body.subscribers, []);
  });

  test(`${dialect.name}: each free-form field has a documented size, and past it the answer is a 422 naming the field`, async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container);
    const call = (method: string, path: string, body?: unknown) => api.call(method, path, { key: acme.ownerKey, ...(body === undefined ? {} : { body }) });
    const manyKeys = Object.fromEntries(Array.from({ length: ATTRIBUTE_LIMITS.maxKeys + 1 }, (_, i) => [`k${i}`, i]));
    const cases: Array<[string, string, unknown, string]> = [
      ["too many attributes", "/api/v1/subscribers", { email: "a@example.com", customAttributes: manyKeys }, "customAttributes"],
      [
        "long attribute name",
        "/api/v1/subscribers",
        { email: "a@example.com", customAttributes: { ["k".repeat(101)]: 1 } },
        `customAttributes.${"k".repeat(101)}`,
      ],
      ["long attribute value", "/api/v1/subscribers", { email: "a@example.com", customAttributes: { plan: "p".repeat(10_001) } }, "customAttributes.plan"],
      ["deep attribute value", "/api/v1/subscribers", { email: "a@example.com", customAttributes: { plan: JSON.parse(nested(9)) } }, "customAttributes.plan"],
      ["long tag", "/api/v1/subscribers", { email: "a@example.com", tags: ["t".repeat(101)] }, "tags.0"],
      [
        "long event property",
        "/api/v1/subscribers/events",
        { email: "a@example.com", event: "x", properties: { note: "n".repeat(10_001) } },
        "properties.note",
      ],
      [
        "500 KB filter value",
        "/api/v1/segments",
        { name: "Huge", filters: [{ field: "email", operator: "contains", value: "%".repeat(500_000) }] },
        "filters.0.value",
      ],
    ];
    for (const [name, path, body, field] of cases) {
      const response = await call("POST", path, body);
      t.is(response.status, 422, name);
      t.is(response.body.errors?.[0]?.path, field, name);
    }
    const page = await call("GET", "/api/v1/subscribers?page=1e20");
    t.is(page.status, 422);
    const digits = await call("GET", "/api/v1/subscribers?page=100000000000000000000");
    t.is(digits.status, 422);
    t.deepEqual((await call("GET", "/api/v1/subscribers")).body.subscribers, []);
    t.deepEqual((await call("GET", "/api/v1/segments")).body.segments, []);
  });

  test(`${dialect.name}: a segment may not name another company's list (refused when written, nothing stored)`, async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container);
    const rival = await createCompanyFixture(api.runtime.container);
    const theirs = await api.call("POST", "/api/v1/lists", { key: rival.ownerKey, body: { name: "Rival list" } });
    const ours = await api.call("POST", "/api/v1/lists", { key: acme.ownerKey, body: { name: "Our list" } });
    const create = (listId: string) =>
      api.call("POST", "/api/v1/segments", { key: acme.ownerKey, body: { name: `In ${listId}`, filters: [{ field: "list", operator: "is", value: listId }] } });
    const refused = await create(theirs.body.list.id);
    t.is(refused.status, 400);
    t.is(refused.body.error, `Segment filters reference a list that does not exist: ${theirs.body.list.id}`);
    t.is((await create("lst_missing")).status, 400);
    const accepted = await create(ours.body.list.id);
    t.is(accepted.status, 200);
    const segments = await api.call("GET", "/api/v1/segments", { key: acme.ownerKey });
    t.deepEqual(
      segments.body.segments.map((segment: { name: string }) => segment.name),
      [`In ${ours.body.list.id}`],
    );
  });

  test(`${dialect.name}: malformed percent-encoding in a path is a 400, and the server answers afterwards`, async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container);
    const response = await api.call("GET", "/api/v1/subscribers/%FF", { key: acme.ownerKey });
    t.is(response.status, 400);
    t.deepEqual(response.body, { success: false, error: "Malformed percent-encoding in the request path" });
    t.is((await api.call("GET", "/health")).status, 200);
  });

  test(`${dialect.name}: every POST honours Idempotency-Key (a list is created once, another body is 409)`, async (t) => {
    const api = await apiFixture(t, dialect);
    const acme = await createCompanyFixture(api.runtime.container);
    const create = (name: string) => api.call("POST", "/api/v1/lists", { key: acme.ownerKey, body: { name }, headers: { "Idempotency-Key": "create-vip" } });
    const [first, concurrent] = await Promise.all([create("VIP"), create("VIP")]);
    const replay = await create("VIP");
    const statuses = [first.status, concurrent.status].sort();
    // Two at once: one runs, the other is told the key is in flight (or replayed if it came after).
    t.true(statuses[0] === 200 && (statuses[1] === 200 || statuses[1] === 409), JSON.stringify(statuses));
    t.is(replay.status, 200);
    t.is(replay.headers.get("idempotent-replayed"), "true");
    const created = first.status === 200 ? first : concurrent;
    t.deepEqual(replay.body, created.body);
    t.is((await create("Other")).status, 409);
    const lists = await api.call("GET", "/api/v1/lists", { key: acme.ownerKey });
    t.is(lists.body.lists.length, 1);
  });
}
