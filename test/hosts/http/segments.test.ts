import test, { type ExecutionContext } from "ava";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { pacedCaller } from "../../helpers/paced-caller.js";
import { insertContactRows, insertListRow } from "../../helpers/contact-rows.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);
const DOCS_URL = "http://lifecycle.test/api/v1/openapi.json";

const DEPTH_MESSAGE = "Segment filters follow a chain of more than 16 segment-to-segment references";
const COUNT_MESSAGE = "Segment filters make more than 1,000 segment references in total, counting a segment each time it is referenced";
const DEPTH_ERROR = {
  success: false,
  error: DEPTH_MESSAGE,
  code: "SEGMENT_REFERENCE_DEPTH_EXCEEDED",
  title: "Segment reference depth exceeded",
  description: DEPTH_MESSAGE,
  howToFix:
    "Keep chains of segments that reference segments at most 16 levels deep: copy the conditions of a deeply nested segment into the segment that " +
    "references it, or reference a segment nearer the end of the chain.",
  docsUrl: DOCS_URL,
};
const COUNT_ERROR = {
  success: false,
  error: COUNT_MESSAGE,
  code: "SEGMENT_REFERENCE_COUNT_EXCEEDED",
  title: "Too many segment references",
  description: COUNT_MESSAGE,
  howToFix:
    "Keep the references under 1,000 in total: remove repeated references to the same segment, or reference one segment that already combines the others instead of each of them.",
  docsUrl: DOCS_URL,
};

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  /** Calls with the company's keys in turn, so long tests stay inside each key's 20 requests a second. */
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
}

async function session(t: ExecutionContext, dialect: Dialect, keys = 1, api?: ApiFixture): Promise<Session> {
  const fixture = api ?? (await apiFixture(t, dialect));
  const company = await createCompanyFixture(fixture.runtime.container);
  return { api: fixture, company, call: await pacedCaller(fixture, company, keys) };
}

const leaf = (field: string, operator: string, value?: unknown) => ({ field, operator, ...(value === undefined ? {} : { value }) });
const refersTo = (segmentId: string) => leaf("segment", "is", segmentId);

async function createSegment(s: Session, body: Record<string, unknown>): Promise<string> {
  const created = await s.call("POST", "/api/v1/segments", { body });
  if (created.status !== 200) throw new Error(`segment not created: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.segment.id as string;
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("a flat segment is created, listed, counted, changed into a tree and deleted"), async (t) => {
    const s = await session(t, dialect, 2);
    const { companyId } = s.company;
    const knex = s.api.runtime.knex;
    await insertListRow(knex, companyId, "lst_customers");
    await insertContactRows(knex, companyId, [
      {
        id: "sub_1",
        email: "ada@example.com",
        attributes: { plan: "pro", seats: 12 },
        tags: ["vip"],
        createdAt: daysAgo(10),
        events: [0, 5, 20].map((d) => ({ name: "purchase", occurredAt: daysAgo(d) })),
      },
      { id: "sub_2", email: "bob@example.com", attributes: { plan: "free" }, tags: ["vip"], createdAt: daysAgo(40) },
      { id: "sub_3", email: "cy@example.com", status: "unsubscribed", attributes: { plan: "pro" }, tags: ["vip"], createdAt: daysAgo(3) },
      { id: "sub_4", email: "di@example.com", attributes: { plan: "Pro" }, lists: [{ listId: "lst_customers" }], createdAt: daysAgo(100) },
    ]);

    const created = await s.call("POST", "/api/v1/segments", {
      body: {
        name: "  Pro VIPs ",
        filters: [leaf("status", "is", "active"), { ...leaf("attribute", "is", "plan:pro"), id: "client-leaf-1" }, leaf("tag", "contains", "VIP")],
      },
    });
    t.is(created.status, 200);
    t.true(created.body.success);
    const segment = created.body.segment;
    t.regex(segment.id, /^seg_[0-9A-Z]{26}$/);
    t.like(segment, { name: "Pro VIPs", format: "flat", filterJoinOperator: "and", subscriberCount: 1, activeSubscriberCount: 1 });
    t.is(segment.createdAt, NOW.toISOString());
    t.is(segment.updatedAt, NOW.toISOString());
    t.is(segment.filters.length, 3);
    t.is(segment.filters[1].id, "client-leaf-1", "a caller's leaf ID is kept");
    t.regex(segment.filters[0].id, /^flt_/, "a missing leaf ID is generated");
    t.deepEqual(segment.filters[2], { id: segment.filters[2].id, field: "tag", operator: "contains", value: "VIP" });
    t.deepEqual(segment.root, {
      kind: "group",
      id: segment.root.id,
      joinOperator: "and",
      children: segment.filters.map((f: Record<string, unknown>) => ({ kind: "filter", ...f })),
    });

    // The tree is what is stored: a flat segment is one group.
    const row = await knex("segments").where({ id: segment.id }).first();
    t.is(row.company_id, companyId);
    t.is(row.format, "flat");
    t.deepEqual(typeof row.root === "string" ? JSON.parse(row.root) : row.root, segment.root);

    const listed = await s.call("GET", "/api/v1/segments");
    t.is(listed.status, 200);
    t.deepEqual(listed.body, { success: true, segments: [segment] });

    const count = await s.call("GET", `/api/v1/segments/${segment.id}/count`);
    t.deepEqual(count.body, { success: true, count: 1, segmentId: segment.id });

    // Renaming keeps the rules and their IDs.
    s.api.clock.advance(60_000);
    const renamed = await s.call("PATCH", `/api/v1/segments/${segment.id}`, { body: { name: "Paying VIPs" } });
    t.is(renamed.status, 200);
    t.deepEqual(renamed.body.segment, { ...segment, name: "Paying VIPs", updatedAt: "2026-11-22T10:01:00.000Z" });

    // A lone join operator changes how the conditions combine: any of them now.
    const anyOf = await s.call("PATCH", `/api/v1/segments/${segment.id}`, { body: { filterJoinOperator: "or" } });
    t.like(anyOf.body.segment, { filterJoinOperator: "or", subscriberCount: 4, activeSubscriberCount: 3 });
    t.is(anyOf.body.segment.root.joinOperator, "or");

    // A root makes it nested; filters[] shows every leaf, flattened.
    const nested = await s.call("PATCH", `/api/v1/segments/${segment.id}`, {
      body: {
        root: {
          kind: "group",
          joinOperator: "or",
          children: [
            { kind: "filter", ...leaf("event", "at_least", "purchase:3:30d") },
            { kind: "group", id: "client-group", joinOperator: "and", children: [leaf("list", "is", "lst_customers"), leaf("added", "more_than", "90d")] },
          ],
        },
      },
    });
    t.is(nested.status, 200);
    const tree = nested.body.segment;
    t.like(tree, { format: "nested", filterJoinOperator: "or", subscriberCount: 2, activeSubscriberCount: 2 });
    t.deepEqual(
      tree.filters.map((f: { field: string; operator: string; value: string }) => [f.field, f.operator, f.value]),
      [
        ["event", "at_least", "purchase:3:30d"],
        ["list", "is", "lst_customers"],
        ["added", "more_than", "90d"],
      ],
    );
    t.is(tree.root.children[1].id, "client-group");
    t.regex(tree.root.id, /^flt_/);
    t.is(tree.root.children[1].children[0].kind, "filter");
    t.deepEqual((await s.call("GET", `/api/v1/segments/${segment.id}/count`)).body, { success: true, count: 2, segmentId: segment.id });

    // filters[] again: flat, joined with "and" unless told otherwise.
    const flat = await s.call("PATCH", `/api/v1/segments/${segment.id}`, { body: { filters: [leaf("attribute", "gte", "seats:12")] } });
    t.like(flat.body.segment, { format: "flat", filterJoinOperator: "and", subscriberCount: 1 });

    const deleted = await s.call("DELETE", `/api/v1/segments/${segment.id}`);
    t.deepEqual(deleted.body, { success: true, segmentId: segment.id });
    t.deepEqual((await s.call("GET", `/api/v1/segments/${segment.id}/count`)).body, { success: false, error: "Segment not found" });
    t.is((await s.call("DELETE", `/api/v1/segments/${segment.id}`)).status, 404);
    t.is((await s.call("PATCH", `/api/v1/segments/${segment.id}`, { body: { name: "x" } })).status, 404);
    t.deepEqual((await s.call("GET", "/api/v1/segments")).body, { success: true, segments: [] });
    t.is(
      await knex("segments")
        .where({ company_id: companyId })
        .count({ n: "*" })
        .first()
        .then((r) => Number(r!.n)),
      0,
    );
  });

  test(name("counts follow each field of the filter table"), async (t) => {
    const s = await session(t, dialect, 3);
    const { companyId } = s.company;
    await insertListRow(s.api.runtime.knex, companyId, "lst_news");
    await insertContactRows(s.api.runtime.knex, companyId, [
      {
        id: "sub_a",
        email: "ann@gmail.com",
        firstName: "Ann",
        phone: "+15550001",
        smsStatus: "subscribed",
        emailProvider: "gmail",
        attributes: { age: 31, plan: "pro", beta: true },
        tags: ["vip", "beta"],
        lists: [{ listId: "lst_news" }],
        events: [{ name: "login", occurredAt: daysAgo(2) }],
        createdAt: daysAgo(2),
      },
      {
        id: "sub_b",
        email: "ben@work.io",
        lastName: "Smith",
        status: "bounced",
        attributes: { age: 25, plan: "free" },
        lists: [{ listId: "lst_news", unsubscribed: true }],
        events: [{ name: "login", occurredAt: daysAgo(60) }],
        createdAt: daysAgo(30),
      },
      { id: "sub_c", email: "cat@gmail.com", emailProvider: "gmail", attributes: { age: "40" }, createdAt: daysAgo(400) },
    ]);
    const cases: Array<[Record<string, unknown>, number]> = [
      [leaf("status", "is_not", "active"), 1],
      [leaf("phone", "is_empty"), 2],
      [leaf("smsStatus", "is", "subscribed"), 1],
      [leaf("tag", "not_contains", "vip,beta"), 2],
      [leaf("tag", "is_not_empty"), 1],
      [leaf("email", "is", "ANN@gmail.com"), 1],
      [leaf("email", "contains", "@gmail"), 2],
      [leaf("emailProvider", "is_empty"), 1],
      [leaf("added", "less_than", "7d"), 1],
      [leaf("added", "more_than", "2026-01-01"), 1],
      [leaf("firstName", "contains", "an"), 1],
      [leaf("lastName", "is_not_empty"), 1],
      [leaf("list", "is", "lst_news"), 1],
      [leaf("list", "is_empty"), 2],
      [leaf("attribute", "gt", "age:30"), 1],
      [leaf("attribute", "is", "age:40"), 1],
      [leaf("attribute", "is", "beta:true"), 1],
      [leaf("attribute", "is_empty", "plan:"), 1],
      [leaf("attribute", "not_contains", "plan:pr"), 2],
      [leaf("event", "is", "login:7d"), 1],
      [leaf("event", "is", "login"), 2],
      [leaf("event", "is_not", "login:90d"), 1],
      [leaf("event", "at_least", "login:1:all"), 2],
      [leaf("event", "less_than_count", "login:1:30d"), 2],
    ];
    for (const [filter, expected] of cases) {
      const created = await s.call("POST", "/api/v1/segments", { body: { name: JSON.stringify(filter), filters: [filter] } });
      t.is(created.status, 200, JSON.stringify(created.body));
      t.is(created.body.segment.subscriberCount, expected, `${JSON.stringify(filter)} matches ${expected}`);
    }

    // Membership in another segment, and its complement.
    const gmail = await createSegment(s, { name: "Gmail", filters: [leaf("emailProvider", "is", "gmail")] });
    const inIt = await s.call("POST", "/api/v1/segments", { body: { name: "In", filters: [refersTo(gmail), leaf("status", "is", "active")] } });
    t.like(inIt.body.segment, { subscriberCount: 2, activeSubscriberCount: 2 });
    const notIn = await s.call("POST", "/api/v1/segments", { body: { name: "Out", filters: [leaf("segment", "is_not", gmail)] } });
    t.like(notIn.body.segment, { subscriberCount: 1, activeSubscriberCount: 0 });
    const listed = await s.call("GET", "/api/v1/segments");
    t.is(listed.body.segments.length, cases.length + 3);
    for (const one of listed.body.segments) {
      t.is(typeof one.subscriberCount, "number");
      t.is(typeof one.activeSubscriberCount, "number");
    }
  });

  test(name("filters are validated: 422 for unknown fields and operators, 400 for values and unsupported fields"), async (t) => {
    const s = await session(t, dialect, 2);
    const post = (body: unknown) => s.call("POST", "/api/v1/segments", { body });
    const expectations: Array<[unknown, number, string]> = [
      [{ name: "x", filters: [leaf("shoeSize", "is", "9")] }, 422, "Invalid request: filters.0.field must be one of: "],
      [{ name: "x", filters: [leaf("status", "equals", "active")] }, 422, "Invalid request: filters.0.operator must be one of: "],
      [
        { name: "x", filters: [leaf("status", "contains", "act")] },
        422,
        "Invalid request: filters.0.operator must be one of: is, is_not for the field 'status'",
      ],
      [{ name: "x", filters: [leaf("status", "is", "sleeping")] }, 422, "Invalid filters.0 (status is): value must be one of: active, unsubscribed, bounced"],
      [
        { name: "x", root: { kind: "group", joinOperator: "xor", children: [leaf("phone", "is_empty")] } },
        422,
        "Invalid request: root.joinOperator must be one of: and, or",
      ],
      [{ filters: [leaf("phone", "is_empty")] }, 422, "Invalid request: name must be a string"],
      [{ name: "x", filters: [leaf("email", "contains", "  ")] }, 400, "Invalid filters.0 (email contains): value must not be empty"],
      [{ name: "x", filters: [leaf("tag", "contains")] }, 400, "Invalid filters.0 (tag contains): value must not be empty"],
      [
        { name: "x", filters: [leaf("emailOpened", "is", "lately")] },
        400,
        "Invalid filters.0 (emailOpened is): value must be a window (7d, 30d, 90d, 180d, Nd (1 to 36500 days) or all) or campaign:<campaign ID>",
      ],
      [
        { name: "x", filters: [leaf("emailClicked", "at_least", "many")] },
        400,
        "Invalid filters.0 (emailClicked at_least): value must be count:window (for example 10:30d), the window 7d, 30d, 90d, 180d, Nd (1 to 36500 days) or all",
      ],
      [{ name: "x", filters: [leaf("emailSent", "is", "campaign:")] }, 400, "Invalid filters.0 (emailSent is): value must be campaign:<campaign ID>"],
      [
        { name: "x", filters: [leaf("emailOpened", "is_permanent_bounce", "30d")] },
        422,
        "Invalid request: filters.0.operator must be one of: is, is_not, at_least, less_than_count for the field 'emailOpened'",
      ],
      [
        { name: "x", root: { kind: "group", joinOperator: "and", children: [leaf("phone", "is_empty"), leaf("stripeProduct", "is", "prod_1")] } },
        400,
        "Invalid root.children.1: the field 'stripeProduct' is not supported (Stripe data is not synced by this server yet)",
      ],
      [
        { name: "x", filters: [leaf("commerceProduct", "is", "p")] },
        400,
        "Invalid filters.0: the field 'commerceProduct' is not supported (product and order filters are not built on this server; filter on the ecommerce.* events with the 'event' field)",
      ],
      [
        { name: "x", filters: [leaf("pollResponse", "is", "{}")] },
        400,
        "Invalid filters.0: the field 'pollResponse' is not supported (poll responses are not recorded by this server yet)",
      ],
      [
        { name: "x", filters: [leaf("event", "is", "login:7y")] },
        400,
        "Invalid filters.0 (event is): window must be 7d, 30d, 90d, 180d, Nd (1 to 36500 days) or all",
      ],
      [{ name: "x", filters: [leaf("event", "is", ":30d")] }, 400, "Invalid filters.0 (event is): value must be eventName:window (for example signed_up:30d)"],
      [
        { name: "x", filters: [leaf("event", "at_least", "login:30d")] },
        400,
        "Invalid filters.0 (event at_least): value must be eventName:count:window (for example signed_up:3:30d)",
      ],
      [{ name: "x", filters: [leaf("attribute", "is", "plan")] }, 400, "Invalid filters.0 (attribute is): value must be name:value (name: for empty checks)"],
      [{ name: "x", filters: [leaf("attribute", "gt", "age:")] }, 400, 'Invalid filters.0 (attribute gt): value needs something after "age:"'],
      [
        { name: "x", filters: [leaf("added", "less_than", "soon")] },
        400,
        "Invalid filters.0 (added less_than): value must be a relative date such as 7d, 12h or 2w, or an ISO date such as 2026-01-31",
      ],
      [{ name: "x", filters: [] }, 400, "Invalid filters: at least one filter is required"],
      [{ name: "x", root: { kind: "group", joinOperator: "and", children: [] } }, 400, "Invalid root: a filter group needs at least one condition"],
      [{ name: "x" }, 400, "Provide filters (with an optional filterJoinOperator) or root"],
      [
        { name: "x", filters: [leaf("phone", "is_empty")], root: { kind: "group", joinOperator: "and", children: [leaf("phone", "is_empty")] } },
        400,
        "Provide either filters or root, not both",
      ],
      [{ name: "x", filters: [leaf("segment", "is", "seg_nothing")] }, 400, "Segment filters reference a segment that does not exist: seg_nothing"],
    ];
    for (const [body, status, message] of expectations) {
      const response = await post(body);
      t.is(response.status, status, JSON.stringify(body));
      t.false(response.body.success);
      t.true(String(response.body.error).startsWith(message), `${JSON.stringify(body)} -> ${response.body.error}`);
    }
    const deep = (levels: number): Record<string, unknown> =>
      levels === 1
        ? { kind: "group", joinOperator: "and", children: [leaf("phone", "is_empty")] }
        : { kind: "group", joinOperator: "or", children: [deep(levels - 1)] };
    t.is((await post({ name: "8 levels", root: deep(8) })).status, 200);
    const nine = await post({ name: "9 levels", root: deep(9) });
    t.is(nine.status, 400);
    t.regex(nine.body.error, /filter groups can be nested at most 8 levels deep/);
    t.is(
      await s.api.runtime
        .knex("segments")
        .count({ n: "*" })
        .first()
        .then((r) => Number(r!.n)),
      1,
      "only the valid segment was stored",
    );

    const id = await createSegment(s, { name: "ok", filters: [leaf("phone", "is_empty")] });
    const nothing = await s.call("PATCH", `/api/v1/segments/${id}`, { body: {} });
    t.deepEqual(nothing.body, { success: false, error: "Nothing to update: provide name, filterJoinOperator, filters or root" });
    t.is((await s.call("PATCH", `/api/v1/segments/${id}`, { body: { filters: [leaf("tag", "is", "vip")] } })).status, 422);
  });

  test(name("another company's segment is not found, and cannot be referenced"), async (t) => {
    const a = await session(t, dialect);
    const b = await session(t, dialect, 1, a.api);
    const segmentId = await createSegment(a, { name: "A's", filters: [leaf("status", "is", "active")] });
    const notFound = { success: false, error: "Segment not found" };
    t.deepEqual((await b.call("GET", `/api/v1/segments/${segmentId}/count`)).body, notFound);
    const patched = await b.call("PATCH", `/api/v1/segments/${segmentId}`, { body: { name: "mine" } });
    t.is(patched.status, 404);
    t.deepEqual(patched.body, notFound);
    const deleted = await b.call("DELETE", `/api/v1/segments/${segmentId}`);
    t.is(deleted.status, 404);
    t.deepEqual(deleted.body, notFound);
    t.deepEqual((await b.call("GET", "/api/v1/segments")).body, { success: true, segments: [] });
    // Referencing it reads exactly like referencing an ID that does not exist.
    const reference = await b.call("POST", "/api/v1/segments", { body: { name: "sneaky", filters: [refersTo(segmentId)] } });
    t.is(reference.status, 400);
    t.deepEqual(reference.body, { success: false, error: `Segment filters reference a segment that does not exist: ${segmentId}` });
    // A's segment is untouched.
    const count = await a.call("GET", `/api/v1/segments/${segmentId}/count`);
    t.deepEqual(count.body, { success: true, count: 0, segmentId });
  });

  test(name("reading needs segments:read, writing segments:write, deleting segments:delete"), async (t) => {
    const s = await session(t, dialect);
    const { container } = s.api.runtime;
    const reader = await createMemberKeyFixture(container, s.company.companyId, { scopes: ["segments:read"] });
    const writer = await createMemberKeyFixture(container, s.company.companyId, { scopes: ["segments:read", "segments:write"] });
    const id = await createSegment(s, { name: "All", filters: [leaf("phone", "is_empty")] });
    t.is((await s.api.call("GET", "/api/v1/segments", { key: reader.key })).status, 200);
    t.is((await s.api.call("GET", `/api/v1/segments/${id}/count`, { key: reader.key })).status, 200);
    const refused = await s.api.call("POST", "/api/v1/segments", { key: reader.key, body: { name: "x", filters: [leaf("phone", "is_empty")] } });
    t.is(refused.status, 403);
    t.deepEqual(refused.body, { success: false, error: "API key is missing required scope: segments:write" });
    t.is((await s.api.call("PATCH", `/api/v1/segments/${id}`, { key: reader.key, body: { name: "y" } })).status, 403);
    t.is((await s.api.call("PATCH", `/api/v1/segments/${id}`, { key: writer.key, body: { name: "y" } })).status, 200);
    const noDelete = await s.api.call("DELETE", `/api/v1/segments/${id}`, { key: writer.key });
    t.deepEqual(noDelete.body, { success: false, error: "API key is missing required scope: segments:delete" });
  });

  test(name("a segment cannot reference itself or form a cycle, and a referenced segment cannot be deleted"), async (t) => {
    const s = await session(t, dialect, 2);
    const base = await createSegment(s, { name: "Base", filters: [leaf("status", "is", "active")] });
    const user = await createSegment(s, { name: "User", filters: [refersTo(base)] });
    const self = await s.call("PATCH", `/api/v1/segments/${base}`, { body: { filters: [refersTo(base)] } });
    t.is(self.status, 400);
    t.deepEqual(self.body, { success: false, error: "A segment cannot reference itself" });
    const cycle = await s.call("PATCH", `/api/v1/segments/${base}`, {
      body: {
        root: { kind: "group", joinOperator: "or", children: [leaf("phone", "is_empty"), { kind: "group", joinOperator: "and", children: [refersTo(user)] }] },
      },
    });
    t.is(cycle.status, 400);
    t.deepEqual(cycle.body, {
      success: false,
      error: `Segment filters cannot reference a segment that references this segment back (${base} -> ${user} -> ${base})`,
    });
    const blocked = await s.call("DELETE", `/api/v1/segments/${base}`);
    t.is(blocked.status, 409);
    t.deepEqual(blocked.body, { success: false, error: `Segment is referenced by other segments (${user}): remove those references first` });
    t.is((await s.call("DELETE", `/api/v1/segments/${user}`)).status, 200);
    t.is((await s.call("DELETE", `/api/v1/segments/${base}`)).status, 200);
  });

  test(name("more than 16 levels of segment references give SEGMENT_REFERENCE_DEPTH_EXCEEDED on create, update and count"), async (t) => {
    const s = await session(t, dialect, 4);
    await insertContactRows(s.api.runtime.knex, s.company.companyId, [{ id: "sub_1", email: "a@example.com", tags: ["vip"], createdAt: daysAgo(1) }]);
    // chain[0] has no references; chain[i] references chain[i - 1]: chain[16] is 16 levels deep.
    const chain = [await createSegment(s, { name: "level 0", filters: [leaf("tag", "contains", "vip")] })];
    for (let level = 1; level <= 16; level += 1) chain.push(await createSegment(s, { name: `level ${level}`, filters: [refersTo(chain[level - 1]!)] }));
    t.deepEqual((await s.call("GET", `/api/v1/segments/${chain[16]}/count`)).body, { success: true, count: 1, segmentId: chain[16] });

    const tooDeep = await s.call("POST", "/api/v1/segments", {
      body: {
        name: "level 17",
        root: { kind: "group", joinOperator: "and", children: [{ kind: "group", joinOperator: "or", children: [refersTo(chain[16]!)] }] },
      },
    });
    t.is(tooDeep.status, 400);
    const { details, ...rest } = tooDeep.body;
    t.deepEqual(rest, DEPTH_ERROR);
    t.regex(details.segmentId, /^seg_/);
    t.deepEqual(details, { limit: "depth", segmentId: details.segmentId, referenceChain: [...chain].reverse(), maxDepth: 16, maxReferences: 1000 });
    t.is((await s.call("GET", "/api/v1/segments")).body.segments.length, 17, "nothing was stored");

    // Lengthening the chain from its far end: the end's own update is fine (one level)...
    const extra = await createSegment(s, { name: "extra", filters: [leaf("phone", "is_empty")] });
    t.is((await s.call("PATCH", `/api/v1/segments/${chain[0]}`, { body: { filters: [refersTo(extra)] } })).status, 200);
    // ...but counting the top now follows 17 levels.
    const count = await s.call("GET", `/api/v1/segments/${chain[16]}/count`);
    t.is(count.status, 400);
    t.deepEqual(count.body, {
      ...DEPTH_ERROR,
      details: { limit: "depth", segmentId: chain[16], referenceChain: [...chain.slice(0, 16).reverse(), extra], maxDepth: 16, maxReferences: 1000 },
    });
    const update = await s.call("PATCH", `/api/v1/segments/${chain[16]}`, { body: { name: "renamed" } });
    t.is(update.status, 400);
    t.is(update.body.code, "SEGMENT_REFERENCE_DEPTH_EXCEEDED");
    // The list still answers, with zero counts for the broken segment.
    const listed = await s.call("GET", "/api/v1/segments");
    t.is(listed.status, 200);
    t.like(
      listed.body.segments.find((one: { id: string }) => one.id === chain[16]),
      { name: "level 16", subscriberCount: 0, activeSubscriberCount: 0 },
    );
    t.like(
      listed.body.segments.find((one: { id: string }) => one.id === chain[15]),
      { subscriberCount: 1 },
    );
  });

  test(name("more than 1,000 segment references in total give SEGMENT_REFERENCE_COUNT_EXCEEDED"), async (t) => {
    const s = await session(t, dialect, 3);
    await insertContactRows(s.api.runtime.knex, s.company.companyId, [{ id: "sub_1", email: "a@example.com", createdAt: daysAgo(1) }]);
    const base = await createSegment(s, { name: "Base", filters: [leaf("status", "is", "active")] });

    // One segment referencing another 1,001 times.
    const many = (times: number, id: string) => Array.from({ length: times }, () => refersTo(id));
    const tooMany = await s.call("POST", "/api/v1/segments", { body: { name: "1001", filterJoinOperator: "or", filters: many(1001, base) } });
    t.is(tooMany.status, 400);
    t.deepEqual(tooMany.body, {
      ...COUNT_ERROR,
      details: { limit: "total", segmentId: tooMany.body.details.segmentId, referenceChain: [base], maxDepth: 16, maxReferences: 1000 },
    });
    const exactly = await s.call("POST", "/api/v1/segments", { body: { name: "1000", filters: many(1000, base) } });
    t.is(exactly.status, 200);
    t.is(exactly.body.segment.subscriberCount, 1);

    // Fan-out: each reference to `ten` counts `ten` itself and its 10 references to base.
    const ten = await createSegment(s, { name: "Ten", filterJoinOperator: "or", filters: many(10, base) });
    const fine = await createSegment(s, { name: "90 x 11", filterJoinOperator: "or", filters: many(90, ten) });
    t.deepEqual((await s.call("GET", `/api/v1/segments/${fine}/count`)).body, { success: true, count: 1, segmentId: fine });
    const fanOut = await s.call("PATCH", `/api/v1/segments/${fine}`, { body: { filters: many(91, ten) } });
    t.is(fanOut.status, 400);
    t.deepEqual(fanOut.body, { ...COUNT_ERROR, details: { limit: "total", segmentId: fine, referenceChain: [ten, base], maxDepth: 16, maxReferences: 1000 } });

    // Nested groups inside one segment do not count as references.
    const grouped = await s.call("POST", "/api/v1/segments", {
      body: {
        name: "grouped",
        root: {
          kind: "group",
          joinOperator: "and",
          children: [{ kind: "group", joinOperator: "or", children: [{ kind: "group", joinOperator: "and", children: many(1000, base) }] }],
        },
      },
    });
    t.is(grouped.status, 200);
  });
}
