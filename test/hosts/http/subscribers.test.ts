import test, { type ExecutionContext } from "ava";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { toDbDate } from "../../../adapters/knex/row-codecs.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  /** Calls with the company's keys in turn, so long tests stay inside each key's 20 requests a second. */
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
}

async function session(t: ExecutionContext, dialect: Dialect, keys = 1, api?: ApiFixture): Promise<Session> {
  const fixture = api ?? (await apiFixture(t, dialect));
  const company = await createCompanyFixture(fixture.runtime.container);
  const ring = [company.ownerKey];
  for (let i = 1; i < keys; i++)
    ring.push((await createMemberKeyFixture(fixture.runtime.container, company.companyId, { role: "owner", email: company.ownerEmail })).key);
  let next = 0;
  return { api: fixture, company, call: (method, path, options = {}) => fixture.call(method, path, { ...options, key: ring[next++ % ring.length]! }) };
}

const byEmail = (email: string, suffix = "") => `/api/v1/subscribers/${encodeURIComponent(email)}${suffix}`;
const byExternalId = (externalId: string) => `/api/v1/subscribers/external?externalId=${encodeURIComponent(externalId)}`;
const NOT_FOUND = { success: false, error: "Subscriber not found" };

async function create(s: Session, body: Record<string, unknown>): Promise<any> {
  const response = await s.call("POST", "/api/v1/subscribers", { body });
  if (response.status !== 200) throw new Error(`subscriber not created: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.subscriber;
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: subscribers: ${title}`;

  test(name("POST creates with every compat field, then matches by email with skip, merge and overwrite"), async (t) => {
    const s = await session(t, dialect, 2);
    const created = await s.call("POST", "/api/v1/subscribers", {
      body: {
        email: "  Ada.Lovelace@Gmail.com ",
        externalId: "crm-1",
        firstName: "Ada",
        lastName: "Lovelace",
        phone: "(415) 555-0123",
        timezone: "Europe/London",
        customAttributes: { plan: "pro", seats: 3, beta: true, meta: { a: [1, null] } },
        tags: ["Pro Customer", "VIP!"],
        lists: ["Newsletter"],
        optInMode: "confirmed",
        createdAt: "2026-01-15T08:00:00.000Z",
      },
    });
    t.is(created.status, 200);
    t.true(created.body.success);
    t.false("optIn" in created.body);
    const subscriber = created.body.subscriber;
    t.regex(subscriber.id, /^sub_[0-9A-Z]{26}$/);
    t.deepEqual(subscriber, {
      id: subscriber.id,
      email: "ada.lovelace@gmail.com",
      externalId: "crm-1",
      firstName: "Ada",
      lastName: "Lovelace",
      phone: "+14155550123",
      smsStatus: "not_subscribed",
      status: "active",
      emailProvider: "gmail",
      timezone: "Europe/London",
      tags: ["pro-customer", "vip"],
      customAttributes: { plan: "pro", seats: 3, beta: true, meta: { a: [1, null] } },
      unsubscribedAt: null,
      createdAt: "2026-01-15T08:00:00.000Z",
      updatedAt: "2026-11-22T10:00:00.000Z",
      created: true,
      updated: false,
      skipped: false,
    });
    const list = await s.api.runtime.knex("lists").where({ company_id: s.company.companyId, name: "Newsletter" }).first();
    t.truthy(list, "a list named but missing is created");

    // skip (the default) leaves the contact as it is.
    const skipped = await s.call("POST", "/api/v1/subscribers", { body: { email: "ada.lovelace@gmail.com", firstName: "Changed" } });
    t.is(skipped.status, 200);
    t.like(skipped.body.subscriber, { id: subscriber.id, firstName: "Ada", created: false, updated: false, skipped: true });

    s.api.clock.advance(60_000);
    const merged = await s.call("POST", "/api/v1/subscribers", {
      body: { email: "ADA.LOVELACE@gmail.com", duplicateStrategy: "merge", lastName: "King", customAttributes: { seats: 5 }, tags: ["new"] },
    });
    t.like(merged.body.subscriber, { id: subscriber.id, firstName: "Ada", lastName: "King", created: false, updated: true, skipped: false });
    t.deepEqual(merged.body.subscriber.customAttributes, { plan: "pro", seats: 5, beta: true, meta: { a: [1, null] } });
    t.deepEqual(merged.body.subscriber.tags, ["new", "pro-customer", "vip"]);

    const overwritten = await s.call("POST", "/api/v1/subscribers", {
      body: { email: "ada.lovelace@gmail.com", duplicateStrategy: "overwrite", firstName: "Augusta", customAttributes: { plan: "free" }, tags: ["free"] },
    });
    t.like(overwritten.body.subscriber, { firstName: "Augusta", lastName: null, phone: null, timezone: null, updated: true });
    t.deepEqual(overwritten.body.subscriber.customAttributes, { plan: "free" });
    t.deepEqual(overwritten.body.subscriber.tags, ["free"]);

    // Matching by externalId when no email is given.
    const byExternal = await s.call("POST", "/api/v1/subscribers", { body: { externalId: "crm-1", duplicateStrategy: "merge", lastName: "Byron" } });
    t.like(byExternal.body.subscriber, { id: subscriber.id, email: "ada.lovelace@gmail.com", lastName: "Byron", created: false });
  });

  test(name("POST: double opt-in without a verified sender says why no email was queued; status, lists by ID and rule errors"), async (t) => {
    const s = await session(t, dialect, 2);
    const noSender =
      "No confirmation email was queued: No verified sender: add and verify a sending domain (POST /api/v1/sending-domains), then set a From address on it";
    const optIn = await s.call("POST", "/api/v1/subscribers", { body: { email: "new@example.com", optInMode: "double_opt_in" } });
    t.is(optIn.status, 200);
    t.deepEqual(optIn.body.optIn, { required: true, emailQueued: false });
    t.deepEqual(optIn.body.warnings, [noSender]);
    // Still unconfirmed: asked again, and told again.
    const again = await s.call("POST", "/api/v1/subscribers", { body: { email: "new@example.com", optInMode: "double_opt_in" } });
    t.deepEqual(again.body.optIn, { required: true, emailQueued: false });
    t.deepEqual(again.body.warnings, [noSender]);
    // A contact that was there before double opt-in is never asked.
    await create(s, { email: "known@example.com" });
    const known = await s.call("POST", "/api/v1/subscribers", { body: { email: "known@example.com", optInMode: "double_opt_in" } });
    t.deepEqual(known.body.optIn, { required: false, emailQueued: false });
    t.false("warnings" in known.body);

    const unsubscribed = await create(s, { email: "gone@example.com", status: "unsubscribed" });
    t.is(unsubscribed.status, "unsubscribed");
    t.is(unsubscribed.unsubscribedAt, "2026-11-22T10:00:00.000Z");

    const listId = (await s.api.runtime.knex("lists").where({ company_id: s.company.companyId }).first())?.id;
    t.is(listId, undefined);
    const withList = await create(s, { email: "member@example.com", lists: ["Customers"] });
    const customers = await s.api.runtime.knex("lists").where({ company_id: s.company.companyId, name: "Customers" }).first();
    const second = await create(s, { email: "member2@example.com", lists: [customers.id] });
    const members = await s.api.runtime.knex("list_memberships").where({ list_id: customers.id }).orderBy("subscriber_id").select("subscriber_id");
    t.deepEqual(
      members.map((m: { subscriber_id: string }) => m.subscriber_id),
      [withList.id, second.id].sort(),
    );

    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ externalId: "only-external" }, 400, "email is required to create a subscriber"],
      [{ email: "a@example.com", customAttributes: { account: "acme" } }, 400, "The custom attribute name 'account' is reserved for accounts"],
      [{ email: "a@example.com", lists: ["list_01JD8Z0000000000000000NONE"] }, 404, "List not found: list_01JD8Z0000000000000000NONE"],
      [
        { email: "a@example.com", phone: "12345" },
        400,
        "phone must be in E.164 format (e.g. +14155550123), or a 10-digit national number when phoneCountry is US or CA",
      ],
      [{ email: "not-an-email" }, 422, "Invalid request: email must be a valid email address"],
      [{ email: "a@example.com", timezone: "Mars/Olympus" }, 422, "Invalid request: timezone must be an IANA time zone such as Europe/Paris"],
      [{ email: "a@example.com", duplicateStrategy: "replace" }, 422, "Invalid request: duplicateStrategy must be one of: skip, merge, overwrite"],
      [{ email: "a@example.com", optInMode: "single" }, 422, "Invalid request: optInMode must be one of: default, confirmed, double_opt_in"],
      [{ email: "a@example.com", customAttributes: [1] }, 422, "Invalid request: customAttributes must be a JSON object"],
    ];
    for (const [body, status, error] of cases) {
      const response = await s.call("POST", "/api/v1/subscribers", { body });
      t.is(response.status, status, JSON.stringify(body));
      t.is(response.body.error, error, JSON.stringify(body));
      t.false(response.body.success);
    }
    // The externalId of one contact cannot be claimed by another contact.
    await create(s, { email: "owner@example.com", externalId: "taken" });
    await create(s, { email: "other@example.com" });
    const taken = await s.call("POST", "/api/v1/subscribers", { body: { email: "other@example.com", externalId: "taken", duplicateStrategy: "merge" } });
    t.is(taken.status, 409);
    t.is(taken.body.error, "externalId is already used by another subscriber");
  });

  test(name("GET by URL-encoded email returns the detail: notes, lists, activity; + and case are kept apart from spaces"), async (t) => {
    const s = await session(t, dialect, 2);
    const contact = await create(s, { email: "Ada+News@Example.com", firstName: "Ada", lists: ["Newsletter", "Beta"], tags: ["vip"] });
    t.is(contact.email, "ada+news@example.com");
    const knex = s.api.runtime.knex;
    // Two custom events, recorded as the events pipeline stores them.
    for (const [id, eventName, at] of [
      ["evt_1", "signed_up", "2026-11-20T09:00:00.000Z"],
      ["evt_2", "saas.purchase", "2026-11-21T09:00:00.000Z"],
    ] as const) {
      await knex("custom_events").insert({
        id,
        company_id: s.company.companyId,
        subscriber_id: contact.id,
        name: eventName,
        properties: JSON.stringify({ amount: 42, plan: "pro" }),
        occurred_at: toDbDate(new Date(at)),
        received_at: toDbDate(new Date(at)),
      });
    }
    await s.call("POST", byEmail("ada+news@example.com", "/notes"), { body: { body: "Asked about pricing" } });

    for (const path of [
      byEmail("Ada+News@Example.com"),
      "/api/v1/subscribers/ada+news@example.com",
      byEmail("ada+news@example.com") + "?includeMachineEngagement=true",
    ]) {
      const got = await s.call("GET", path);
      t.is(got.status, 200, path);
      const detail = got.body.subscriber;
      t.is(detail.id, contact.id);
      t.is(detail.email, "ada+news@example.com");
      t.deepEqual(detail.tags, ["vip"]);
      t.deepEqual(detail.sequenceEnrollments, []);
      // Nothing was sent to this contact (tracking.test.ts has one that was).
      t.deepEqual(detail.emailStats, {
        sent: 0,
        delivered: 0,
        opened: 0,
        clicked: 0,
        bounced: 0,
        complained: 0,
        unsubscribed: 0,
        lastSentAt: null,
        lastOpenedAt: null,
        lastClickedAt: null,
      });
      t.deepEqual(
        detail.lists.map((l: any) => [l.name, l.description, l.isPrivate, l.subscribedAt, l.unsubscribedAt]),
        [
          ["Beta", null, false, "2026-11-22T10:00:00.000Z", null],
          ["Newsletter", null, false, "2026-11-22T10:00:00.000Z", null],
        ],
      );
      t.deepEqual(detail.activity, [
        {
          id: "evt_2",
          eventType: "custom",
          eventName: "saas.purchase",
          eventTime: "2026-11-21T09:00:00.000Z",
          properties: { amount: 42, plan: "pro" },
          campaignId: null,
          emailSendId: null,
          clickedUrl: null,
          bounceType: null,
          machine: false,
          engagementQuality: null,
          classificationReasons: [],
        },
        {
          id: "evt_1",
          eventType: "custom",
          eventName: "signed_up",
          eventTime: "2026-11-20T09:00:00.000Z",
          properties: { amount: 42, plan: "pro" },
          campaignId: null,
          emailSendId: null,
          clickedUrl: null,
          bounceType: null,
          machine: false,
          engagementQuality: null,
          classificationReasons: [],
        },
      ]);
      t.deepEqual(detail.activityPagination, { limit: 50, nextCursor: null, hasMore: false });
      t.is(detail.notes.length, 1);
      t.like(detail.notes[0], { subscriberId: contact.id, body: "Asked about pricing", authorId: s.company.ownerMemberId });
    }

    // A space is not a plus: "ada news@..." names no contact.
    for (const path of [byEmail("ada news@example.com"), byEmail("nobody@example.com"), "/api/v1/subscribers/not-an-email"]) {
      const missing = await s.call("GET", path);
      t.is(missing.status, 404, path);
      t.deepEqual(missing.body, NOT_FOUND);
    }
  });

  test(name("externalIds with '/' are reached through /subscribers/external?externalId="), async (t) => {
    const s = await session(t, dialect, 2);
    const contact = await create(s, { email: "grace@example.com", externalId: "crm/accounts/42" });

    const got = await s.call("GET", byExternalId("crm/accounts/42"));
    t.is(got.status, 200);
    t.is(got.body.subscriber.id, contact.id);
    t.deepEqual(got.body.subscriber.notes, []);

    const patched = await s.call("PATCH", byExternalId("crm/accounts/42"), { body: { firstName: "Grace", customAttributes: { team: "navy" } } });
    t.is(patched.status, 200);
    t.like(patched.body.subscriber, { id: contact.id, firstName: "Grace", externalId: "crm/accounts/42" });
    t.deepEqual(patched.body.subscriber.customAttributes, { team: "navy" });

    const missingQuery = await s.call("GET", "/api/v1/subscribers/external");
    t.is(missingQuery.status, 422);
    t.is(missingQuery.body.error, "Invalid request: externalId is required");
    const unknown = await s.call("GET", byExternalId("crm/accounts/43"));
    t.deepEqual([unknown.status, unknown.body], [404, NOT_FOUND]);

    const deleted = await s.call("DELETE", byExternalId("crm/accounts/42"));
    t.is(deleted.status, 200);
    t.deepEqual(deleted.body, { success: true, deleted: true, hardDeleted: true, subscriber: { id: contact.id, email: "grace@example.com" } });
    const after = await s.call("GET", byExternalId("crm/accounts/42"));
    t.deepEqual([after.status, after.body], [404, NOT_FOUND]);
    const again = await s.call("DELETE", byExternalId("crm/accounts/42"));
    t.deepEqual([again.status, again.body], [404, NOT_FOUND]);
  });

  test(name("PATCH applies the compat update body"), async (t) => {
    const s = await session(t, dialect, 3);
    const contact = await create(s, {
      email: "linus@example.com",
      externalId: "u-1",
      firstName: "Linus",
      lastName: "Torvalds",
      phone: "+358401234567",
      timezone: "Europe/Helsinki",
      customAttributes: { plan: "pro", seats: 2 },
      tags: ["kernel", "vip"],
      lists: ["Newsletter", "Beta"],
    });
    await create(s, { email: "other@example.com", externalId: "u-2" });
    s.api.clock.advance(60_000);

    const cleared = await s.call("PATCH", byEmail("LINUS@example.com"), {
      body: { lastName: "", timezone: null, phone: "", customAttributes: { seats: 3, beta: false }, customAttributesStrategy: "merge", tags: ["Git", "vip"] },
    });
    t.is(cleared.status, 200);
    t.deepEqual(Object.keys(cleared.body).sort(), ["subscriber", "success"]);
    t.like(cleared.body.subscriber, { firstName: "Linus", lastName: null, timezone: null, phone: null, updatedAt: "2026-11-22T10:01:00.000Z" });
    t.deepEqual(cleared.body.subscriber.customAttributes, { plan: "pro", seats: 3, beta: false });
    t.deepEqual(cleared.body.subscriber.tags, ["git", "vip"]);

    const replaced = await s.call("PATCH", byEmail("linus@example.com"), { body: { customAttributes: { only: [1, "two"] } } });
    t.deepEqual(replaced.body.subscriber.customAttributes, { only: [1, "two"] });

    const sms = await s.call("PATCH", byEmail("linus@example.com"), { body: { phone: "+358 40 765 4321", smsConsent: true } });
    t.like(sms.body.subscriber, { phone: "+358407654321", smsStatus: "subscribed" });
    const newPhone = await s.call("PATCH", byEmail("linus@example.com"), { body: { phone: "+358401111111" } });
    t.like(newPhone.body.subscriber, { phone: "+358401111111", smsStatus: "not_subscribed" }, "a new number resets SMS consent");

    const conflicts: Array<[Record<string, unknown>, number, string]> = [
      [{ externalId: "u-2" }, 409, "externalId is already used by another subscriber"],
      [{ email: "other@example.com" }, 409, "email is already used by another subscriber"],
      [{ customAttributes: { account: "acme" } }, 400, "The custom attribute name 'account' is reserved for accounts"],
      [{}, 400, "No supported fields provided"],
      [{ status: "gone" }, 422, "Invalid request: status must be one of: active, unsubscribed, bounced"],
      [{ customAttributesStrategy: "append", customAttributes: {} }, 422, "Invalid request: customAttributesStrategy must be one of: replace, merge"],
    ];
    for (const [body, status, error] of conflicts) {
      const response = await s.call("PATCH", byEmail("linus@example.com"), { body });
      t.deepEqual([response.status, response.body.error], [status, error], JSON.stringify(body));
    }
    const missing = await s.call("PATCH", byEmail("nobody@example.com"), { body: { firstName: "X" } });
    t.deepEqual([missing.status, missing.body], [404, NOT_FOUND]);

    // A new email and externalId move with the contact.
    const moved = await s.call("PATCH", byEmail("linus@example.com"), { body: { email: "Linus@Linux-Foundation.org", externalId: "u/1" } });
    t.like(moved.body.subscriber, { id: contact.id, email: "linus@linux-foundation.org", externalId: "u/1", emailProvider: null });
    t.is((await s.call("GET", byEmail("linus@example.com"))).status, 404);
    t.is((await s.call("GET", byExternalId("u/1"))).body.subscriber.id, contact.id);

    // Global unsubscribe: the contact and every list membership.
    s.api.clock.advance(60_000);
    const unsubscribed = await s.call("PATCH", byExternalId("u/1"), { body: { status: "unsubscribed" } });
    t.like(unsubscribed.body.subscriber, { status: "unsubscribed", unsubscribedAt: "2026-11-22T10:02:00.000Z" });
    const detail = (await s.call("GET", byExternalId("u/1"))).body.subscriber;
    t.deepEqual(
      detail.lists.map((l: any) => l.unsubscribedAt),
      ["2026-11-22T10:02:00.000Z", "2026-11-22T10:02:00.000Z"],
    );
    const resubscribed = await s.call("PATCH", byExternalId("u/1"), { body: { status: "active" } });
    t.like(resubscribed.body.subscriber, { status: "active", unsubscribedAt: null });
  });

  test(name("DELETE hard-deletes the contact with its notes, memberships and events"), async (t) => {
    const s = await session(t, dialect, 2);
    const contact = await create(s, { email: "bye+test@example.com", tags: ["x"], lists: ["L"] });
    await s.call("POST", byEmail("bye+test@example.com", "/notes"), { body: { body: "note" } });
    const deleted = await s.call("DELETE", byEmail("Bye+Test@example.com"));
    t.is(deleted.status, 200);
    t.deepEqual(deleted.body, { success: true, deleted: true, hardDeleted: true, subscriber: { id: contact.id, email: "bye+test@example.com" } });
    const knex = s.api.runtime.knex;
    for (const table of ["subscribers", "subscriber_notes", "subscriber_tags", "list_memberships"]) {
      const rows = await knex(table).where(table === "subscribers" ? { id: contact.id } : { subscriber_id: contact.id });
      t.is(rows.length, 0, table);
    }
    t.deepEqual((await s.call("GET", byEmail("bye+test@example.com"))).body, NOT_FOUND);
    const again = await s.call("DELETE", byEmail("bye+test@example.com"));
    t.deepEqual([again.status, again.body], [404, NOT_FOUND]);
  });

  test(name("another company's subscribers are not found, listed or changed"), async (t) => {
    const a = await session(t, dialect, 2);
    const b = await session(t, dialect, 2, a.api);
    const contact = await create(a, { email: "shared+a@example.com", externalId: "ext/1", firstName: "A" });
    await create(b, { email: "only-b@example.com" });

    for (const [method, path, body] of [
      ["GET", byEmail("shared+a@example.com"), undefined],
      ["PATCH", byEmail("shared+a@example.com"), { firstName: "B" }],
      ["DELETE", byEmail("shared+a@example.com"), undefined],
      ["GET", byExternalId("ext/1"), undefined],
      ["PATCH", byExternalId("ext/1"), { firstName: "B" }],
      ["DELETE", byExternalId("ext/1"), undefined],
    ] as const) {
      const response = await b.call(method, path, body ? { body } : {});
      t.deepEqual([response.status, response.body], [404, NOT_FOUND], `${method} ${path}`);
    }
    const listedB = await b.call("GET", "/api/v1/subscribers?limit=100");
    t.deepEqual(
      listedB.body.subscribers.map((x: any) => x.email),
      ["only-b@example.com"],
    );
    t.is(listedB.body.pagination.total, 1);
    const searched = await b.call("GET", "/api/v1/subscribers?query=shared");
    t.deepEqual(searched.body.subscribers, []);

    // B may create its own contact with the same email and externalId.
    const own = await create(b, { email: "shared+a@example.com", externalId: "ext/1" });
    t.true(own.created);
    t.not(own.id, contact.id);
    const stillA = await a.call("GET", byEmail("shared+a@example.com"));
    t.like(stillA.body.subscriber, { id: contact.id, firstName: "A" });
  });

  test(name("scopes: reading needs subscribers:read, writing subscribers:write, deleting subscribers:delete"), async (t) => {
    const s = await session(t, dialect);
    await create(s, { email: "scoped@example.com" });
    const reader = await createMemberKeyFixture(s.api.runtime.container, s.company.companyId, {
      role: "owner",
      email: s.company.ownerEmail,
      scopes: ["subscribers:read"],
    });
    t.is((await s.api.call("GET", "/api/v1/subscribers", { key: reader.key })).status, 200);
    t.is((await s.api.call("GET", byEmail("scoped@example.com"), { key: reader.key })).status, 200);
    const write = await s.api.call("POST", "/api/v1/subscribers", { key: reader.key, body: { email: "x@example.com" } });
    t.deepEqual([write.status, write.body.error], [403, "API key is missing required scope: subscribers:write"]);
    const remove = await s.api.call("DELETE", byEmail("scoped@example.com"), { key: reader.key });
    t.deepEqual([remove.status, remove.body.error], [403, "API key is missing required scope: subscribers:delete"]);
  });

  test(name("GET /subscribers filters, pages and cursors"), async (t) => {
    const s = await session(t, dialect, 6);
    const knex = s.api.runtime.knex;
    // Seven contacts, one minute apart: newest first means the reverse of this order.
    const specs: Array<Record<string, unknown>> = [
      {
        email: "alice@gmail.com",
        firstName: "Alice",
        lastName: "Smith",
        tags: ["vip", "pro"],
        lists: ["Newsletter"],
        customAttributes: { plan: "pro", seats: 10, signup: "2026-01-10" },
      },
      { email: "bob@example.com", firstName: "Bob", externalId: "crm-bob", tags: ["vip"], customAttributes: { plan: "free", seats: 1, signup: "2026-03-01" } },
      { email: "carol@example.com", firstName: "Carol", tags: ["pro"], lists: ["Newsletter"], customAttributes: { plan: "Pro Annual", seats: 25 } },
      { email: "dave@example.com", firstName: "Dave", tags: ["vip", "pro", "beta"], customAttributes: { plan: "", beta: true } },
      { email: "erin@example.com", firstName: "Erin", lists: ["Partners"], customAttributes: { seats: 5.5 } },
      { email: "frank_x@example.com", firstName: "Frank", status: "unsubscribed" },
      { email: "grace@example.com", lastName: "Hopper", status: "bounced" },
    ];
    const ids: Record<string, string> = {};
    for (const spec of specs) {
      const contact = await create(s, spec);
      ids[contact.email] = contact.id;
      s.api.clock.advance(60_000);
    }
    const emails = (response: JsonResponse) => response.body.subscribers.map((x: any) => x.email.split("@")[0]);
    const get = (query: string) => s.call("GET", `/api/v1/subscribers${query}`);

    const all = await get("");
    t.is(all.status, 200);
    t.deepEqual(emails(all), ["grace", "frank_x", "erin", "dave", "carol", "bob", "alice"]);
    t.deepEqual(all.body.pagination, { page: 1, limit: 20, total: 7, totalPages: 1, nextCursor: null, hasMore: false });
    t.is(all.body.returned, 7);
    t.false(all.body.truncated);
    t.deepEqual(Object.keys(all.body.subscribers[0]).sort(), [
      "createdAt",
      "customAttributes",
      "email",
      "emailProvider",
      "externalId",
      "firstName",
      "id",
      "lastName",
      "phone",
      "smsStatus",
      "status",
      "tags",
      "timezone",
      "unsubscribedAt",
      "updatedAt",
    ]);

    const cases: Array<[string, string[]]> = [
      ["?query=alice@gmail.com", ["alice"]],
      ["?query=ALICE@GMAIL.COM", ["alice"]],
      ["?query=example.com", ["grace", "frank_x", "erin", "dave", "carol", "bob"]],
      ["?query=smith", ["alice"]],
      ["?query=alice%20smith", ["alice"]],
      ["?query=hopper", ["grace"]],
      ["?query=crm-b", ["bob"]],
      ["?query=beta", ["dave"]],
      ["?query=_x", ["frank_x"]],
      ["?query=%25", []],
      ["?email=bob@example.com", ["bob"]],
      ["?email=ar", ["carol"]],
      ["?tags=vip", ["dave", "bob", "alice"]],
      ["?tags=vip,pro", ["dave", "alice"]],
      ["?tags=VIP,%20Pro", ["dave", "alice"]],
      ["?tags=vip,missing", []],
      ["?list=Newsletter", ["carol", "alice"]],
      ["?listName=Partners", ["erin"]],
      ["?status=active", ["erin", "dave", "carol", "bob", "alice"]],
      ["?status=unsubscribed", ["frank_x"]],
      ["?status=bounced", ["grace"]],
      ["?status=all", ["grace", "frank_x", "erin", "dave", "carol", "bob", "alice"]],
      ["?tags=pro&list=Newsletter&status=active", ["carol", "alice"]],
    ];
    for (const [query, expected] of cases) {
      const response = await get(query);
      t.is(response.status, 200, query);
      t.deepEqual(emails(response), expected, query);
    }

    const newsletter = await knex("lists").where({ company_id: s.company.companyId, name: "Newsletter" }).first();
    t.deepEqual(emails(await get(`?listId=${newsletter.id}`)), ["carol", "alice"]);
    t.deepEqual(emails(await get(`?list=${newsletter.id}`)), ["carol", "alice"]);
    const unknownList = await get("?listId=list_nope");
    t.deepEqual([unknownList.status, unknownList.body.error], [404, "List not found"]);

    // Unsubscribed between two instants; a bare date is UTC midnight.
    await knex("subscribers")
      .where({ id: ids["frank_x@example.com"] })
      .update({ unsubscribed_at: toDbDate(new Date("2026-06-15T12:00:00.000Z")) });
    t.deepEqual(emails(await get("?unsubscribedAfter=2026-06-15&unsubscribedBefore=2026-06-16")), ["frank_x"]);
    t.deepEqual(emails(await get("?unsubscribedAfter=2026-06-15T12:00:01.000Z")), []);
    t.deepEqual(emails(await get("?unsubscribedBefore=2026-06-15T12:00:00.000Z")), []);

    // Attribute searches: by ID ascending, no total.
    const attributeCases: Array<[string, string[]]> = [
      ["?attribute=plan:pro", ["alice"]],
      ["?attribute=plan:PRO", ["alice"]],
      ["?attribute=plan:pro&attributeOperator=contains", ["alice", "carol"]],
      ["?attribute=seats:5&attributeOperator=gt", ["alice", "carol", "erin"]],
      ["?attribute=seats:10&attributeOperator=gte", ["alice", "carol"]],
      ["?attribute=seats:5.5&attributeOperator=lte", ["bob", "erin"]],
      ["?attribute=seats:2&attributeOperator=lt", ["bob"]],
      ["?attribute=signup:2026-02-01&attributeOperator=lt", ["alice"]],
      ["?attribute=plan&attributeOperator=is_not_empty", ["alice", "bob", "carol"]],
      ["?attribute=beta:true", ["dave"]],
      ["?attribute=seats:1", ["bob"]],
      ["?attribute=plan:pro&attributeOperator=contains&tags=pro", ["alice", "carol"]],
    ];
    for (const [query, expected] of attributeCases) {
      const response = await get(query);
      t.is(response.status, 200, query);
      t.deepEqual(emails(response), expected, query);
      t.is(response.body.pagination.total, null, query);
      t.is(response.body.pagination.totalPages, null, query);
    }
    const attributeFirst = await get("?attribute=plan&attributeOperator=is_not_empty&limit=2");
    t.deepEqual(emails(attributeFirst), ["alice", "bob"]);
    t.like(attributeFirst.body.pagination, { total: null, hasMore: true });
    const attributeNext = await get(`?attribute=plan&attributeOperator=is_not_empty&limit=2&cursor=${attributeFirst.body.pagination.nextCursor}`);
    t.deepEqual(emails(attributeNext), ["carol"]);
    t.like(attributeNext.body.pagination, { page: null, nextCursor: null, hasMore: false });

    // Pages.
    const page2 = await get("?page=2&limit=3");
    t.deepEqual(emails(page2), ["dave", "carol", "bob"]);
    t.like(page2.body.pagination, { page: 2, limit: 3, total: 7, totalPages: 3, hasMore: true });
    t.is(page2.body.returned, 3);
    t.true(page2.body.truncated);
    const page3 = await get("?page=3&limit=3");
    t.deepEqual(emails(page3), ["alice"]);
    t.like(page3.body.pagination, { hasMore: false, nextCursor: null });
    t.deepEqual(emails(await get("?page=4&limit=3")), []);

    // Cursors walk every contact once, with or without totals.
    const walked: string[] = [];
    let cursor: string | null = null;
    let calls = 0;
    do {
      const response: JsonResponse = await get(`?limit=2&includeTotal=false${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      t.is(response.status, 200);
      t.is(response.body.pagination.total, null);
      walked.push(...emails(response));
      cursor = response.body.pagination.nextCursor;
      calls += 1;
    } while (cursor && calls < 10);
    t.deepEqual(walked, ["grace", "frank_x", "erin", "dave", "carol", "bob", "alice"]);
    t.is(calls, 4);
    const withTotal = await get(`?limit=2&cursor=${(await get("?limit=2")).body.pagination.nextCursor}`);
    t.deepEqual(emails(withTotal), ["erin", "dave"]);
    t.like(withTotal.body.pagination, { page: null, total: 7, totalPages: 4, hasMore: true });

    // Contacts created at the same instant still page without loss or repeats.
    for (const n of [1, 2, 3]) await create(s, { email: `same${n}@example.com` });
    const sameWalk: string[] = [];
    cursor = null;
    do {
      const response: JsonResponse = await get(`?limit=2&query=same${cursor ? `&cursor=${cursor}` : ""}`);
      sameWalk.push(...emails(response));
      cursor = response.body.pagination.nextCursor;
    } while (cursor);
    t.deepEqual(sameWalk.sort(), ["same1", "same2", "same3"]);

    const big = await get("?limit=5000");
    t.is(big.status, 200);
    t.is(big.body.pagination.limit, 1000);

    const errors: Array<[string, number, string]> = [
      ["?limit=0", 422, "Invalid request: limit must be at least 1"],
      ["?page=0", 422, "Invalid request: page must be at least 1"],
      ["?limit=ten", 422, "Invalid request: limit must be an integer"],
      ["?status=pending", 422, "Invalid request: status must be one of: active, unsubscribed, bounced, all"],
      ["?attributeOperator=near&attribute=a:b", 422, "Invalid request: attributeOperator must be one of: is, contains, gt, gte, lt, lte, is_not_empty"],
      ["?unsubscribedAfter=yesterday", 422, "Invalid request: unsubscribedAfter must be an ISO 8601 timestamp"],
      ["?cursor=garbage", 400, "cursor is not valid for this search: start again without it"],
      [`?attribute=plan:pro&cursor=${(await get("?limit=1")).body.pagination.nextCursor}`, 400, "cursor is not valid for this search: start again without it"],
      ["?attribute=plan", 400, "attribute must be given as name:value"],
      ["?attribute=:pro", 400, "attribute must be given as name:value"],
      ["?attribute=pl%22an:pro", 400, "attribute name must not contain quotes or backslashes"],
      ["?attribute=plan:pro&segmentId=seg_1", 400, "attribute cannot be combined with segmentId"],
      ["?segmentId=seg_missing", 404, "Segment not found"],
    ];
    for (const [query, status, error] of errors) {
      const response = await get(query);
      t.deepEqual([response.status, response.body.error], [status, error], query);
    }
  });

  test(name("GET /subscribers?segmentId= lists the segment's members"), async (t) => {
    const s = await session(t, dialect, 2);
    for (const spec of [{ email: "a@gmail.com", tags: ["vip"] }, { email: "b@example.com", tags: ["vip"] }, { email: "c@gmail.com" }]) {
      await create(s, spec);
      s.api.clock.advance(1000);
    }
    const segment = await s.call("POST", "/api/v1/segments", {
      body: { name: "VIPs", filters: [{ field: "tag", operator: "contains", value: "vip" }] },
    });
    t.is(segment.status, 200, JSON.stringify(segment.body));
    const members = await s.call("GET", `/api/v1/subscribers?segmentId=${segment.body.segment.id}`);
    t.is(members.status, 200, JSON.stringify(members.body));
    t.deepEqual(
      members.body.subscribers.map((x: any) => x.email),
      ["b@example.com", "a@gmail.com"],
    );
    t.is(members.body.pagination.total, 2);
    const narrowed = await s.call("GET", `/api/v1/subscribers?segmentId=${segment.body.segment.id}&query=gmail`);
    t.deepEqual(
      narrowed.body.subscribers.map((x: any) => x.email),
      ["a@gmail.com"],
    );

    // Another company's segment is not found.
    const other = await session(t, dialect, 1, s.api);
    const foreign = await other.call("GET", `/api/v1/subscribers?segmentId=${segment.body.segment.id}`);
    t.deepEqual([foreign.status, foreign.body.error], [404, "Segment not found"]);
  });
}
