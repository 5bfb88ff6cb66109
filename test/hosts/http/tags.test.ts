import test, { type ExecutionContext } from "ava";
import { toDbDate } from "../../../adapters/knex/row-codecs.js";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";
import { pacedCaller } from "../../helpers/paced-caller.js";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
}

async function session(t: ExecutionContext, dialect: Dialect, api?: ApiFixture): Promise<Session> {
  const fixture = api ?? (await apiFixture(t, dialect));
  const company = await createCompanyFixture(fixture.runtime.container);
  return { api: fixture, company, call: await pacedCaller(fixture, company) };
}

const tagNames = (response: JsonResponse) => response.body.tags.map((tag: { name: string }) => tag.name);

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("tags are created under normalised names, listed with usage counts, recoloured and deleted from every contact"), async (t) => {
    const s = await session(t, dialect);

    const created = await s.call("POST", "/api/v1/tags", { body: { name: "  Pro Customer! ", color: "blue" } });
    t.is(created.status, 200);
    const pro = created.body.tag;
    t.deepEqual(created.body, {
      success: true,
      tag: {
        id: pro.id,
        name: "pro-customer",
        color: "blue",
        isSystem: false,
        subscriberCount: 0,
        createdAt: "2026-11-22T10:00:00.000Z",
        updatedAt: "2026-11-22T10:00:00.000Z",
      },
    });
    t.regex(pro.id, /^tag_/);
    const vip = (await s.call("POST", "/api/v1/tags", { body: { name: "VIP" } })).body.tag;
    t.is(vip.color, "gray", "gray by default");

    // One name however it is written.
    const again = await s.call("POST", "/api/v1/tags", { body: { name: "pro_customer", color: "red" } });
    t.deepEqual([again.status, again.body], [409, { success: false, error: "Tag already exists" }]);
    const blank = await s.call("POST", "/api/v1/tags", { body: { name: "!!!" } });
    t.deepEqual([blank.status, blank.body.error], [400, "Tag name '!!!' must contain a letter or a digit"]);
    const color = await s.call("POST", "/api/v1/tags", { body: { name: "other", color: "magenta" } });
    t.is(color.status, 422);
    t.deepEqual(color.body.errors, [
      {
        path: "color",
        message: "must be one of: gray, red, orange, amber, yellow, lime, green, emerald, teal, cyan, sky, blue, indigo, violet, purple, fuchsia, pink, rose",
      },
    ]);
    const missing = await s.call("POST", "/api/v1/tags", { body: {} });
    t.deepEqual([missing.status, missing.body.errors], [422, [{ path: "name", message: "is required" }]]);

    // Two contacts carry vip: the count is a number on every dialect.
    for (const email of ["ann@example.com", "bob@example.com"]) {
      t.is((await s.call("POST", "/api/v1/subscribers/tags", { body: { email, tag: "vip" } })).status, 200);
    }
    const listed = await s.call("GET", "/api/v1/tags");
    t.is(listed.status, 200);
    t.deepEqual(tagNames(listed), ["pro-customer", "vip"], "alphabetical");
    t.deepEqual(
      listed.body.tags.map((tag: { subscriberCount: unknown }) => tag.subscriberCount),
      [0, 2],
    );
    t.regex(listed.body.tags[1].createdAt, ISO);

    s.api.clock.advance(60_000);
    const recoloured = await s.call("PATCH", `/api/v1/tags/${vip.id}`, { body: { color: "rose" } });
    t.is(recoloured.status, 200);
    t.deepEqual(recoloured.body.tag, { ...vip, color: "rose", subscriberCount: 2, updatedAt: "2026-11-22T10:01:00.000Z" });
    const renamed = await s.call("PATCH", `/api/v1/tags/${vip.id}`, { body: { name: "gold" } });
    t.deepEqual([renamed.status, renamed.body.error], [400, "Only color can be changed: provide color"]);
    const badColor = await s.call("PATCH", `/api/v1/tags/${vip.id}`, { body: { color: "plaid" } });
    t.is(badColor.status, 422);
    const unknown = await s.call("PATCH", "/api/v1/tags/tag_unknown", { body: { color: "red" } });
    t.deepEqual([unknown.status, unknown.body], [404, { success: false, error: "Tag not found" }]);
    t.is((await s.call("GET", "/api/v1/tags")).body.tags[1].color, "rose");

    const deleted = await s.call("DELETE", `/api/v1/tags/${vip.id}`);
    t.deepEqual([deleted.status, deleted.body], [200, { success: true, tagId: vip.id }]);
    t.deepEqual(tagNames(await s.call("GET", "/api/v1/tags")), ["pro-customer"]);
    // The contacts no longer carry it.
    const ann = await s.call("POST", "/api/v1/subscribers/tags", { body: { email: "ann@example.com", tag: "later" } });
    t.deepEqual(ann.body.subscriber.tags, ["later"]);
    t.deepEqual(await s.api.runtime.knex("subscriber_tags").where({ tag_id: vip.id }), []);
    const gone = await s.call("DELETE", `/api/v1/tags/${vip.id}`);
    t.deepEqual([gone.status, gone.body.error], [404, "Tag not found"]);
  });

  test(name("system tags can be neither recoloured nor deleted"), async (t) => {
    const s = await session(t, dialect);
    const at = toDbDate(new Date("2026-01-01T00:00:00.000Z"));
    await s.api.runtime.knex("tags").insert({
      id: "tag_system1",
      company_id: s.company.companyId,
      name: "unsubscribed-by-import",
      color: "gray",
      is_system: true,
      created_at: at,
      updated_at: at,
    });

    const listed = await s.call("GET", "/api/v1/tags");
    t.deepEqual(listed.body.tags, [
      {
        id: "tag_system1",
        name: "unsubscribed-by-import",
        color: "gray",
        isSystem: true,
        subscriberCount: 0,
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
      },
    ]);
    const patch = await s.call("PATCH", "/api/v1/tags/tag_system1", { body: { color: "red" } });
    t.deepEqual([patch.status, patch.body], [400, { success: false, error: "System tags cannot be changed" }]);
    const remove = await s.call("DELETE", "/api/v1/tags/tag_system1");
    t.deepEqual([remove.status, remove.body], [400, { success: false, error: "System tags cannot be deleted" }]);
    t.is((await s.call("GET", "/api/v1/tags")).body.tags[0].color, "gray");
  });

  test(name("POST /subscribers/tags tags one contact, creating the contact and the tag when missing"), async (t) => {
    const s = await session(t, dialect);

    const first = await s.call("POST", "/api/v1/subscribers/tags", {
      body: { email: " New@Example.com ", externalId: "crm-1", tag: "Trial User", customAttributes: { plan: "pro", seats: 3 } },
    });
    t.is(first.status, 200);
    const contactId = first.body.subscriber.id;
    t.regex(contactId, /^sub_/);
    const tagId = first.body.tag.id;
    t.regex(tagId, /^tag_/);
    t.deepEqual(first.body, {
      success: true,
      subscriber: { id: contactId, email: "new@example.com", externalId: "crm-1", tags: ["trial-user"], created: true },
      tag: { id: tagId, name: "trial-user", created: true },
    });

    // The same again: nothing new, and given attributes are merged into the contact.
    const second = await s.call("POST", "/api/v1/subscribers/tags", { body: { externalId: "crm-1", tag: "trial_user", customAttributes: { seats: 5 } } });
    t.deepEqual(second.body, {
      success: true,
      subscriber: { id: contactId, email: "new@example.com", externalId: "crm-1", tags: ["trial-user"], created: false },
      tag: { id: tagId, name: "trial-user", created: false },
    });
    const row = await s.api.runtime.knex("subscribers").where({ id: contactId }).first();
    const attributes = typeof row.custom_attributes === "string" ? JSON.parse(row.custom_attributes) : row.custom_attributes;
    t.deepEqual(attributes, { plan: "pro", seats: 5 });

    // A tag that exists already, on a contact that does not.
    const other = await s.call("POST", "/api/v1/subscribers/tags", { body: { email: "other@example.com", tag: "trial-user" } });
    t.deepEqual([other.body.subscriber.created, other.body.tag], [true, { id: tagId, name: "trial-user", created: false }]);

    const noContact = await s.call("POST", "/api/v1/subscribers/tags", { body: { tag: "x" } });
    t.deepEqual([noContact.status, noContact.body], [400, { success: false, error: "Provide email or externalId" }]);
    const externalOnly = await s.call("POST", "/api/v1/subscribers/tags", { body: { externalId: "crm-unknown", tag: "x" } });
    t.deepEqual([externalOnly.status, externalOnly.body.error], [400, "email is required to create a subscriber"]);
    const blankTag = await s.call("POST", "/api/v1/subscribers/tags", { body: { email: "new@example.com", tag: "???" } });
    t.deepEqual([blankTag.status, blankTag.body.error], [400, "Tag name '???' must contain a letter or a digit"]);
    const reserved = await s.call("POST", "/api/v1/subscribers/tags", { body: { email: "new@example.com", tag: "x", customAttributes: { account: "acme" } } });
    t.deepEqual([reserved.status, reserved.body.error], [400, "The custom attribute name 'account' is reserved for accounts"]);
    const badEmail = await s.call("POST", "/api/v1/subscribers/tags", { body: { email: "not-an-email", tag: "x" } });
    t.deepEqual([badEmail.status, badEmail.body.errors], [422, [{ path: "email", message: "must be a valid email address" }]]);
    const noTag = await s.call("POST", "/api/v1/subscribers/tags", { body: { email: "new@example.com" } });
    t.deepEqual([noTag.status, noTag.body.errors], [422, [{ path: "tag", message: "is required" }]]);
    const taken = await s.call("POST", "/api/v1/subscribers/tags", { body: { email: "other@example.com", externalId: "crm-1", tag: "x" } });
    t.deepEqual([taken.status, taken.body.error], [409, "externalId is already used by another subscriber"]);
    t.deepEqual(tagNames(await s.call("GET", "/api/v1/tags")), ["trial-user"], "refused calls create no tag");
  });

  test(name("POST /subscribers/tags/bulk reports the tags added to the contact and those created"), async (t) => {
    const s = await session(t, dialect);
    await s.call("POST", "/api/v1/tags", { body: { name: "vip" } });
    await s.call("POST", "/api/v1/subscribers/tags", { body: { email: "ann@example.com", tag: "customer" } });

    const bulk = await s.call("POST", "/api/v1/subscribers/tags/bulk", {
      body: { email: "ann@example.com", tags: ["VIP", "Customer", "beta tester", "vip"], customAttributes: { tier: 2 } },
    });
    t.is(bulk.status, 200);
    t.deepEqual(bulk.body, {
      success: true,
      subscriber: { id: bulk.body.subscriber.id, email: "ann@example.com", externalId: null, tags: ["beta-tester", "customer", "vip"], created: false },
      tags: { added: ["vip", "beta-tester"], created: ["beta-tester"] },
    });

    const fresh = await s.call("POST", "/api/v1/subscribers/tags/bulk", { body: { email: "new@example.com", tags: ["one", "two"] } });
    t.deepEqual(
      [fresh.body.subscriber.created, fresh.body.subscriber.tags, fresh.body.tags],
      [true, ["one", "two"], { added: ["one", "two"], created: ["one", "two"] }],
    );

    const empty = await s.call("POST", "/api/v1/subscribers/tags/bulk", { body: { email: "ann@example.com", tags: [] } });
    t.deepEqual([empty.status, empty.body.error], [400, "Provide at least one tag in tags"]);
    const tooMany = await s.call("POST", "/api/v1/subscribers/tags/bulk", {
      body: { email: "ann@example.com", tags: Array.from({ length: 101 }, (_, i) => `t${i}`) },
    });
    t.deepEqual([tooMany.status, tooMany.body.error], [400, "At most 100 tags can be added per request (got 101)"]);
    const notArray = await s.call("POST", "/api/v1/subscribers/tags/bulk", { body: { email: "ann@example.com", tags: "vip" } });
    t.is(notArray.status, 422);
    const noContact = await s.call("POST", "/api/v1/subscribers/tags/bulk", { body: { tags: ["x"] } });
    t.deepEqual([noContact.status, noContact.body.error], [400, "Provide email or externalId"]);
  });

  test(name("POST /subscribers/tags/remove takes a tag off an existing contact and updates its names"), async (t) => {
    const s = await session(t, dialect);
    const tagged = await s.call("POST", "/api/v1/subscribers/tags/bulk", { body: { email: "ann@example.com", externalId: "crm-7", tags: ["vip", "beta"] } });
    const id = tagged.body.subscriber.id;

    const removed = await s.call("POST", "/api/v1/subscribers/tags/remove", {
      body: { email: "ANN@example.com", tag: "VIP", firstName: "Ann", lastName: "Lee" },
    });
    t.is(removed.status, 200);
    t.deepEqual(removed.body, {
      success: true,
      subscriber: { id, email: "ann@example.com", externalId: "crm-7", tags: ["beta"], created: false },
      tag: { name: "vip", removed: true },
    });
    const row = await s.api.runtime.knex("subscribers").where({ id }).first();
    t.deepEqual([row.first_name, row.last_name], ["Ann", "Lee"]);

    const twice = await s.call("POST", "/api/v1/subscribers/tags/remove", { body: { externalId: "crm-7", tag: "vip" } });
    t.deepEqual([twice.status, twice.body.tag, twice.body.subscriber.tags], [200, { name: "vip", removed: false }, ["beta"]]);
    const neverExisted = await s.call("POST", "/api/v1/subscribers/tags/remove", { body: { email: "ann@example.com", tag: "no-such-tag" } });
    t.deepEqual(neverExisted.body.tag, { name: "no-such-tag", removed: false });
    // The tag itself stays in the company.
    t.deepEqual(tagNames(await s.call("GET", "/api/v1/tags")), ["beta", "vip"]);

    const unknown = await s.call("POST", "/api/v1/subscribers/tags/remove", { body: { email: "nobody@example.com", tag: "vip" } });
    t.deepEqual([unknown.status, unknown.body], [404, { success: false, error: "Subscriber not found" }]);
    t.is(await s.api.runtime.knex("subscribers").where({ email: "nobody@example.com" }).first(), undefined, "never creates a contact");
    const noContact = await s.call("POST", "/api/v1/subscribers/tags/remove", { body: { tag: "vip" } });
    t.deepEqual([noContact.status, noContact.body.error], [400, "Provide email or externalId"]);
  });

  test(name("tag routes need tags:read, tags:write or subscribers:tag"), async (t) => {
    const s = await session(t, dialect);
    const container = s.api.runtime.container;
    const reader = await createMemberKeyFixture(container, s.company.companyId, { role: "owner", email: s.company.ownerEmail, scopes: ["tags:read"] });
    const tagger = await createMemberKeyFixture(container, s.company.companyId, { role: "owner", email: s.company.ownerEmail, scopes: ["subscribers:tag"] });

    t.is((await s.api.call("GET", "/api/v1/tags", { key: reader.key })).status, 200);
    const write = await s.api.call("POST", "/api/v1/tags", { key: reader.key, body: { name: "x" } });
    t.deepEqual([write.status, write.body.error], [403, "API key is missing required scope: tags:write"]);
    const tagContact = await s.api.call("POST", "/api/v1/subscribers/tags", { key: reader.key, body: { email: "a@example.com", tag: "x" } });
    t.deepEqual([tagContact.status, tagContact.body.error], [403, "API key is missing required scope: subscribers:tag"]);

    t.is((await s.api.call("POST", "/api/v1/subscribers/tags", { key: tagger.key, body: { email: "a@example.com", tag: "x" } })).status, 200);
    t.is((await s.api.call("POST", "/api/v1/subscribers/tags/bulk", { key: tagger.key, body: { email: "a@example.com", tags: ["y"] } })).status, 200);
    t.is((await s.api.call("POST", "/api/v1/subscribers/tags/remove", { key: tagger.key, body: { email: "a@example.com", tag: "y" } })).status, 200);
    const list = await s.api.call("GET", "/api/v1/tags", { key: tagger.key });
    t.deepEqual([list.status, list.body.error], [403, "API key is missing required scope: tags:read"]);
  });

  test(name("a company sees and changes only its own tags and contacts"), async (t) => {
    const a = await session(t, dialect);
    const b = await session(t, dialect, a.api);
    const tag = (await a.call("POST", "/api/v1/tags", { body: { name: "vip" } })).body.tag;
    await a.call("POST", "/api/v1/subscribers/tags", { body: { email: "ann@example.com", tag: "vip" } });

    t.deepEqual((await b.call("GET", "/api/v1/tags")).body.tags, []);
    const patch = await b.call("PATCH", `/api/v1/tags/${tag.id}`, { body: { color: "red" } });
    t.deepEqual([patch.status, patch.body.error], [404, "Tag not found"]);
    const remove = await b.call("DELETE", `/api/v1/tags/${tag.id}`);
    t.deepEqual([remove.status, remove.body.error], [404, "Tag not found"]);
    const untag = await b.call("POST", "/api/v1/subscribers/tags/remove", { body: { email: "ann@example.com", tag: "vip" } });
    t.deepEqual([untag.status, untag.body.error], [404, "Subscriber not found"]);

    // B's own "vip" and its own ann are separate from A's.
    const own = await b.call("POST", "/api/v1/subscribers/tags", { body: { email: "ann@example.com", tag: "vip" } });
    t.deepEqual([own.status, own.body.subscriber.created, own.body.tag.created], [200, true, true]);
    t.not(own.body.tag.id, tag.id);
    const aTags = (await a.call("GET", "/api/v1/tags")).body.tags;
    t.deepEqual(
      aTags.map((x: { id: string; color: string; subscriberCount: number }) => [x.id, x.color, x.subscriberCount]),
      [[tag.id, "gray", 1]],
    );
  });
}
