import test, { type ExecutionContext } from "ava";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
}

/** Requests spread over several keys, each kept under the per-key limit of 20 a second. */
async function session(t: ExecutionContext, dialect: Dialect, api?: ApiFixture): Promise<Session> {
  const fixture = api ?? (await apiFixture(t, dialect));
  const company = await createCompanyFixture(fixture.runtime.container);
  const ring = [company.ownerKey];
  for (let i = 1; i < 4; i++)
    ring.push((await createMemberKeyFixture(fixture.runtime.container, company.companyId, { role: "owner", email: company.ownerEmail })).key);
  const lastUse = new Map<string, number>();
  let next = 0;
  return {
    api: fixture,
    company,
    async call(method, path, options = {}) {
      const key = ring[next++ % ring.length]!;
      const wait = (lastUse.get(key) ?? 0) + 60 - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      lastUse.set(key, Date.now());
      return fixture.call(method, path, { ...options, key });
    },
  };
}

const NOW = "2026-11-22T10:00:00.000Z";
const members = (s: Session, listId: string): Promise<string[]> =>
  s.api.runtime
    .knex("list_memberships")
    .join("subscribers", "subscribers.id", "list_memberships.subscriber_id")
    .where({ list_id: listId })
    .orderBy("subscribers.email")
    .pluck("subscribers.email");

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("lists are created, listed alphabetically with numeric counts, changed and deleted without their contacts"), async (t) => {
    const s = await session(t, dialect);

    const created = await s.call("POST", "/api/v1/lists", { body: { name: " Newsletter ", description: "Weekly news", companyId: "cmp_someone_else" } });
    t.is(created.status, 200);
    const newsletter = created.body.list;
    t.regex(newsletter.id, /^list_/);
    t.deepEqual(created.body, {
      success: true,
      list: {
        id: newsletter.id,
        name: "Newsletter",
        description: "Weekly news",
        isPrivate: false,
        allowMemberUnsubscribe: true,
        subscriberCount: 0,
        activeSubscriberCount: 0,
        createdAt: NOW,
        updatedAt: NOW,
      },
    });
    t.is((await s.api.runtime.knex("lists").where({ id: newsletter.id }).first()).company_id, s.company.companyId, "the body's companyId is ignored");
    const beta = (await s.call("POST", "/api/v1/lists", { body: { name: "Beta testers", isPrivate: true } })).body.list;
    t.deepEqual([beta.description, beta.isPrivate], [null, true]);

    const duplicate = await s.call("POST", "/api/v1/lists", { body: { name: "Newsletter" } });
    t.deepEqual([duplicate.status, duplicate.body], [409, { success: false, error: "A list named 'Newsletter' already exists" }]);
    const noName = await s.call("POST", "/api/v1/lists", { body: { description: "x" } });
    t.deepEqual([noName.status, noName.body.errors], [422, [{ path: "name", message: "is required" }]]);
    const blankName = await s.call("POST", "/api/v1/lists", { body: { name: "   " } });
    t.deepEqual([blankName.status, blankName.body.errors], [422, [{ path: "name", message: "must not be blank" }]]);
    const badPrivate = await s.call("POST", "/api/v1/lists", { body: { name: "x", isPrivate: "yes" } });
    t.is(badPrivate.status, 422);

    // Members: one active, one unsubscribed contact.
    await s.call("POST", `/api/v1/lists/${newsletter.id}/subscribers`, { body: { emails: ["ann@example.com", "bob@example.com"] } });
    await s.api.runtime.knex("subscribers").where({ email: "bob@example.com" }).update({ status: "unsubscribed" });

    const listed = await s.call("GET", "/api/v1/lists");
    t.is(listed.status, 200);
    t.deepEqual(
      listed.body.lists.map((l: { name: string; subscriberCount: unknown; activeSubscriberCount: unknown }) => [
        l.name,
        l.subscriberCount,
        l.activeSubscriberCount,
      ]),
      [
        ["Beta testers", 0, 0],
        ["Newsletter", 2, 1],
      ],
    );

    s.api.clock.advance(1000);
    const patched = await s.call("PATCH", `/api/v1/lists/${newsletter.id}`, { body: { name: "Weekly", description: null, isPrivate: true } });
    t.is(patched.status, 200);
    t.deepEqual(patched.body.list, {
      ...newsletter,
      name: "Weekly",
      description: null,
      isPrivate: true,
      subscriberCount: 2,
      activeSubscriberCount: 1,
      updatedAt: "2026-11-22T10:00:01.000Z",
    });
    const described = await s.call("PATCH", `/api/v1/lists/${newsletter.id}`, { body: { description: "Every Monday" } });
    t.deepEqual([described.body.list.name, described.body.list.description, described.body.list.isPrivate], ["Weekly", "Every Monday", true]);
    const nothing = await s.call("PATCH", `/api/v1/lists/${newsletter.id}`, { body: {} });
    t.deepEqual([nothing.status, nothing.body.error], [400, "No supported fields provided: give name, description, isPrivate or allowMemberUnsubscribe"]);
    const emptyName = await s.call("PATCH", `/api/v1/lists/${newsletter.id}`, { body: { name: "" } });
    t.deepEqual([emptyName.status, emptyName.body.errors], [422, [{ path: "name", message: "must not be blank" }]]);
    const taken = await s.call("PATCH", `/api/v1/lists/${newsletter.id}`, { body: { name: "Beta testers" } });
    t.deepEqual([taken.status, taken.body.error], [409, "A list named 'Beta testers' already exists"]);
    const unknown = await s.call("PATCH", "/api/v1/lists/list_unknown", { body: { name: "x" } });
    t.deepEqual([unknown.status, unknown.body], [404, { success: false, error: "List not found" }]);

    const deleted = await s.call("DELETE", `/api/v1/lists/${newsletter.id}`);
    t.deepEqual([deleted.status, deleted.body], [200, { success: true, listId: newsletter.id }]);
    t.deepEqual(
      (await s.call("GET", "/api/v1/lists")).body.lists.map((l: { id: string }) => l.id),
      [beta.id],
    );
    t.deepEqual(await s.api.runtime.knex("list_memberships").where({ list_id: newsletter.id }), []);
    t.deepEqual(await s.api.runtime.knex("subscribers").orderBy("email").pluck("email"), ["ann@example.com", "bob@example.com"], "contacts stay");
    const again = await s.call("DELETE", `/api/v1/lists/${newsletter.id}`);
    t.deepEqual([again.status, again.body.error], [404, "List not found"]);
  });

  test(name("members are added by email, unknown emails become contacts, members already there are skipped"), async (t) => {
    const s = await session(t, dialect);
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "Newsletter" } })).body.list;
    await s.call("POST", "/api/v1/subscribers/tags", { body: { email: "ann@example.com", tag: "customer" } });
    const path = `/api/v1/lists/${list.id}/subscribers`;

    const first = await s.call("POST", path, {
      body: { emails: ["ann@example.com", "New@Example.com", "new@example.com"], duplicateStrategy: "skip", enrollInSequences: false, optInMode: "default" },
    });
    t.is(first.status, 200);
    t.deepEqual(first.body, { success: true, list: { ...list, subscriberCount: 2, activeSubscriberCount: 2 }, added: 2, skipped: 1, created: 1 });
    t.deepEqual(await members(s, list.id), ["ann@example.com", "new@example.com"]);
    const ann = await s.api.runtime.knex("subscribers").where({ email: "ann@example.com" }).first();
    t.is(
      ann.updated_at instanceof Date ? ann.updated_at.toISOString() : new Date(ann.updated_at).toISOString(),
      NOW,
      "a known contact is only joined, never rewritten",
    );

    // A member who left the list is not re-subscribed.
    await s.api.runtime.knex("list_memberships").where({ list_id: list.id, subscriber_id: ann.id }).update({ unsubscribed_at: NOW });
    const second = await s.call("POST", path, { body: { emails: ["ann@example.com", "new@example.com", "third@example.com"], optInMode: "double_opt_in" } });
    t.deepEqual([second.body.added, second.body.skipped, second.body.created], [1, 2, 1]);
    t.deepEqual([second.body.list.subscriberCount, second.body.list.activeSubscriberCount], [3, 2]);
    t.deepEqual(second.body.warnings, [
      "No confirmation email was queued: No verified sender: add and verify a sending domain (POST /api/v1/sending-domains), then set a From address on it",
    ]);
    t.not((await s.api.runtime.knex("list_memberships").where({ list_id: list.id, subscriber_id: ann.id }).first()).unsubscribed_at, null);

    const invalid = await s.call("POST", path, { body: { emails: ["ok@example.com", "not an email"] } });
    t.deepEqual([invalid.status, invalid.body.errors], [422, [{ path: "emails.1", message: "must be a valid email address" }]]);
    const empty = await s.call("POST", path, { body: { emails: [] } });
    t.deepEqual([empty.status, empty.body.errors], [422, [{ path: "emails", message: "must hold at least one email address" }]]);
    const tooMany = await s.call("POST", path, { body: { emails: Array.from({ length: 501 }, (_, i) => `c${i}@example.com`) } });
    t.is(tooMany.status, 422);
    t.is(tooMany.body.error, "Invalid request: emails must hold at most 500 email addresses per request (got 501)");
    const badStrategy = await s.call("POST", path, { body: { emails: ["x@example.com"], duplicateStrategy: "replace" } });
    t.is(badStrategy.status, 422);
    t.is(await s.api.runtime.knex("subscribers").where({ email: "ok@example.com" }).first(), undefined, "a refused request creates nobody");
    const unknown = await s.call("POST", "/api/v1/lists/list_unknown/subscribers", { body: { emails: ["ann@example.com"] } });
    t.deepEqual([unknown.status, unknown.body], [404, { success: false, error: "List not found" }]);
  });

  test(name("500 emails are added and removed in one call each"), async (t) => {
    const s = await session(t, dialect);
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "Big" } })).body.list;
    const emails = Array.from({ length: 500 }, (_, i) => `contact-${i}@example.com`);
    // Half of them are contacts already.
    await s.call("POST", `/api/v1/lists/${(await s.call("POST", "/api/v1/lists", { body: { name: "Seed" } })).body.list.id}/subscribers`, {
      body: { emails: emails.slice(0, 250) },
    });

    const added = await s.call("POST", `/api/v1/lists/${list.id}/subscribers`, { body: { emails } });
    t.deepEqual([added.status, added.body.added, added.body.skipped, added.body.created], [200, 500, 0, 250]);
    t.deepEqual([added.body.list.subscriberCount, added.body.list.activeSubscriberCount], [500, 500]);

    const removed = await s.call("POST", `/api/v1/lists/${list.id}/subscribers/remove`, { body: { emails } });
    t.deepEqual([removed.status, removed.body.removed, removed.body.skipped, removed.body.notFound], [200, 500, 0, []]);
    t.is(removed.body.list.subscriberCount, 0);
    t.is((await s.api.runtime.knex("subscribers").pluck("id")).length, 500, "contacts stay");
  });

  test(name("members are removed by email; non-members are skipped and unknown emails listed"), async (t) => {
    const s = await session(t, dialect);
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "Newsletter" } })).body.list;
    await s.call("POST", `/api/v1/lists/${list.id}/subscribers`, { body: { emails: ["ann@example.com", "bob@example.com"] } });
    await s.call("POST", "/api/v1/subscribers/tags", { body: { email: "cat@example.com", tag: "x" } });
    const path = `/api/v1/lists/${list.id}/subscribers/remove`;

    const removed = await s.call("POST", path, {
      body: { emails: ["ANN@example.com", "cat@example.com", "Nobody@Example.com", "not an email", "ann@example.com"] },
    });
    t.is(removed.status, 200);
    t.deepEqual(removed.body, {
      success: true,
      list: { ...list, subscriberCount: 1, activeSubscriberCount: 1 },
      removed: 1,
      skipped: 1,
      notFound: ["nobody@example.com", "not an email"],
    });
    t.deepEqual(await members(s, list.id), ["bob@example.com"]);
    t.truthy(await s.api.runtime.knex("subscribers").where({ email: "ann@example.com" }).first(), "the contact stays");

    const empty = await s.call("POST", path, { body: { emails: [] } });
    t.is(empty.status, 422);
    const tooMany = await s.call("POST", path, { body: { emails: Array.from({ length: 501 }, (_, i) => `c${i}@example.com`) } });
    t.deepEqual([tooMany.status, tooMany.body.errors[0].path], [422, "emails"]);
    const unknown = await s.call("POST", "/api/v1/lists/list_unknown/subscribers/remove", { body: { emails: ["bob@example.com"] } });
    t.deepEqual([unknown.status, unknown.body.error], [404, "List not found"]);
  });

  test(name("list routes need lists:read or lists:write"), async (t) => {
    const s = await session(t, dialect);
    const reader = await createMemberKeyFixture(s.api.runtime.container, s.company.companyId, {
      role: "owner",
      email: s.company.ownerEmail,
      scopes: ["lists:read"],
    });
    const list = (await s.call("POST", "/api/v1/lists", { body: { name: "Newsletter" } })).body.list;

    t.is((await s.api.call("GET", "/api/v1/lists", { key: reader.key })).status, 200);
    for (const [method, path, body] of [
      ["POST", "/api/v1/lists", { name: "x" }],
      ["PATCH", `/api/v1/lists/${list.id}`, { name: "x" }],
      ["DELETE", `/api/v1/lists/${list.id}`, undefined],
      ["POST", `/api/v1/lists/${list.id}/subscribers`, { emails: ["a@example.com"] }],
      ["POST", `/api/v1/lists/${list.id}/subscribers/remove`, { emails: ["a@example.com"] }],
    ] as const) {
      const response = await s.api.call(method, path, { key: reader.key, ...(body ? { body } : {}) });
      t.deepEqual([response.status, response.body.error], [403, "API key is missing required scope: lists:write"], `${method} ${path}`);
    }
  });

  test(name("a company sees and changes only its own lists and contacts"), async (t) => {
    const a = await session(t, dialect);
    const b = await session(t, dialect, a.api);
    const list = (await a.call("POST", "/api/v1/lists", { body: { name: "Newsletter" } })).body.list;
    await a.call("POST", `/api/v1/lists/${list.id}/subscribers`, { body: { emails: ["ann@example.com"] } });

    t.deepEqual((await b.call("GET", "/api/v1/lists")).body.lists, []);
    for (const [method, path, body] of [
      ["PATCH", `/api/v1/lists/${list.id}`, { name: "x" }],
      ["DELETE", `/api/v1/lists/${list.id}`, undefined],
      ["POST", `/api/v1/lists/${list.id}/subscribers`, { emails: ["ann@example.com"] }],
      ["POST", `/api/v1/lists/${list.id}/subscribers/remove`, { emails: ["ann@example.com"] }],
    ] as const) {
      const response = await b.call(method, path, body ? { body } : {});
      t.deepEqual([response.status, response.body.error], [404, "List not found"], `${method} ${path}`);
    }

    // B's list of the same name, and B's own ann, are separate from A's.
    const own = (await b.call("POST", "/api/v1/lists", { body: { name: "Newsletter" } })).body.list;
    t.not(own.id, list.id);
    const joined = await b.call("POST", `/api/v1/lists/${own.id}/subscribers`, { body: { emails: ["ann@example.com"] } });
    t.deepEqual([joined.body.added, joined.body.created], [1, 1]);
    const removed = await b.call("POST", `/api/v1/lists/${own.id}/subscribers/remove`, { body: { emails: ["ann@example.com"] } });
    t.is(removed.body.removed, 1);
    const aLists = (await a.call("GET", "/api/v1/lists")).body.lists;
    t.deepEqual(
      aLists.map((l: { id: string; name: string; subscriberCount: number }) => [l.id, l.name, l.subscriberCount]),
      [[list.id, "Newsletter", 1]],
    );
    t.is((await a.api.runtime.knex("subscribers").where({ email: "ann@example.com" }).pluck("company_id")).length, 2);
  });
}
