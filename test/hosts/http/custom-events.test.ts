import test from "ava";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { ContactEvents, type ContactEvent } from "../../../core/events/contact-events.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";

const NOW = Date.parse("2026-11-22T10:00:00.000Z");
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const YEAR = 365 * 24 * HOUR;

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: custom events: ${title}`;

  async function setup(t: import("ava").ExecutionContext) {
    const api = await apiFixture(t, dialect);
    const a = await createCompanyFixture(api.runtime.container, { name: "Acme" });
    const b = await createCompanyFixture(api.runtime.container, { name: "Beta" });
    const published: ContactEvent[] = [];
    const unsubscribe = api.runtime.container.get<ContactEvents>(ContactEvents).subscribe((event) => void published.push(event));
    t.teardown(unsubscribe);
    const post = (path: string, body: unknown, key = a.ownerKey) => api.call("POST", `/api/v1${path}`, { key, body });
    const get = (path: string, key = a.ownerKey) => api.call("GET", `/api/v1${path}`, { key });
    return { api, a, b, published, post, get, knex: api.runtime.knex };
  }

  test(name("an event creates the contact, its definition, and is published once"), async (t) => {
    const { post, published, knex, a } = await setup(t);
    const first = await post("/subscribers/events", {
      email: " Ada@Example.com ",
      event: "saas.purchase",
      properties: { plan: "pro", amount: 4900, addons: ["seats"] },
      firstName: "Ada",
      customAttributes: { plan: "pro" },
    });
    t.is(first.status, 200);
    t.true(first.body.success);
    t.regex(first.body.event.id, /^evt_/);
    t.deepEqual(first.body.event, { id: first.body.event.id, name: "saas.purchase", definitionCreated: true });
    t.like(first.body.subscriber, { email: "ada@example.com", created: true });
    t.regex(first.body.subscriber.id, /^sub_/);
    t.false("duplicate" in first.body);
    t.false("historical" in first.body);
    t.false("sideEffectFailures" in first.body);

    const contact = await knex("subscribers").where({ company_id: a.companyId, email: "ada@example.com" }).first();
    t.is(contact.first_name, "Ada");
    t.deepEqual(typeof contact.custom_attributes === "string" ? JSON.parse(contact.custom_attributes) : contact.custom_attributes, { plan: "pro" });

    const second = await post("/subscribers/events", { email: "ada@example.com", event: "saas.purchase", properties: { plan: "team" } });
    t.is(second.status, 200);
    t.like(second.body, { event: { name: "saas.purchase", definitionCreated: false }, subscriber: { id: first.body.subscriber.id, created: false } });

    t.deepEqual(
      published.map((event) => [event.customEventId, event.subscriberId, event.email, event.name, event.source, event.historical]),
      [
        [first.body.event.id, first.body.subscriber.id, "ada@example.com", "saas.purchase", "api", false],
        [second.body.event.id, first.body.subscriber.id, "ada@example.com", "saas.purchase", "api", false],
      ],
    );
    t.deepEqual(published[0]?.properties, { plan: "pro", amount: 4900, addons: ["seats"] });
    t.is(published[0]?.occurredAt.toISOString(), new Date(NOW).toISOString(), "occurredAt defaults to now");
    const definition = await knex("event_definitions").where({ company_id: a.companyId, name: "saas.purchase" }).first();
    t.is(Number(definition.event_count), 2);
  });

  test(name("identity rules: email or externalId, externalId alone only for known contacts, reserved attribute"), async (t) => {
    const { post } = await setup(t);
    const none = await post("/subscribers/events", { event: "signed_in" });
    t.is(none.status, 400);
    t.deepEqual(none.body, { success: false, error: "email or externalId is required" });

    const unknown = await post("/subscribers/events", { externalId: "user-1", event: "signed_in" });
    t.is(unknown.status, 404);
    t.deepEqual(unknown.body, { success: false, error: "Subscriber not found" });

    const created = await post("/subscribers/events", { email: "bo@example.com", externalId: "user-1", event: "signed_in" });
    t.is(created.status, 200);
    t.true(created.body.subscriber.created);
    const byExternalId = await post("/subscribers/events", { externalId: "user-1", event: "signed_in", lastName: "Li" });
    t.is(byExternalId.status, 200);
    t.like(byExternalId.body.subscriber, { id: created.body.subscriber.id, email: "bo@example.com", created: false });

    const reserved = await post("/subscribers/events", { email: "bo@example.com", event: "signed_in", customAttributes: { account: "acme" } });
    t.is(reserved.status, 400);
    t.is(reserved.body.error, "The custom attribute name 'account' is reserved for accounts");

    const missingEvent = await post("/subscribers/events", { email: "bo@example.com" });
    t.is(missingEvent.status, 422);
    t.deepEqual(missingEvent.body.errors, [{ path: "event", message: "is required" }]);
    const badTypes = await post("/subscribers/events", { email: "bo@example.com", event: "x", properties: [1], occurredAt: "yesterday" });
    t.is(badTypes.status, 422);
    t.deepEqual(badTypes.body.errors.map((e: { path: string }) => e.path).sort(), ["occurredAt", "properties"]);
    const badEmail = await post("/subscribers/events", { email: "not-an-email", event: "x" });
    t.is(badEmail.status, 422);
  });

  test(name("eventId makes retries safe: the original event comes back and nothing is published"), async (t) => {
    const { post, published, knex, a } = await setup(t);
    const body = { email: "cy@example.com", event: "order.paid", eventId: "order-42", properties: { total: 10 } };
    const first = await post("/subscribers/events", body);
    const again = await post("/subscribers/events", { ...body, properties: { total: 99 } });
    t.is(again.status, 200);
    t.deepEqual(again.body.event, { id: first.body.event.id, name: "order.paid", definitionCreated: false });
    t.true(again.body.duplicate);
    t.is(published.length, 1);
    // The same eventId under another event name is another event.
    const other = await post("/subscribers/events", { ...body, event: "order.shipped" });
    t.not(other.body.event.id, first.body.event.id);
    t.false("duplicate" in other.body);
    const rows = await knex("custom_events").where({ company_id: a.companyId, event_id: "order-42" });
    t.is(rows.length, 2);
    const definition = await knex("event_definitions").where({ company_id: a.companyId, name: "order.paid" }).first();
    t.is(Number(definition.event_count), 1, "a repeat is not counted");
  });

  test(name("events over an hour old are history: stored, counted, never published; over 5 years refused"), async (t) => {
    const { post, published, knex, a } = await setup(t);
    const recent = await post("/subscribers/events", { email: "di@example.com", event: "page.viewed", occurredAt: ago(59 * MINUTE) });
    t.is(recent.status, 200);
    t.false("historical" in recent.body);

    const old = await post("/subscribers/events", { email: "di@example.com", event: "page.viewed", occurredAt: ago(2 * HOUR), eventId: "pv-1" });
    t.is(old.status, 200);
    t.deepEqual(old.body, {
      success: true,
      event: { id: old.body.event.id, name: "page.viewed", definitionCreated: false },
      subscriber: { id: recent.body.subscriber.id, email: "di@example.com", created: false },
      historical: true,
      events: [{ id: old.body.event.id, name: "page.viewed", occurredAt: ago(2 * HOUR) }],
      inserted: 1,
      duplicates: 0,
    });
    const repeat = await post("/subscribers/events", { email: "di@example.com", event: "page.viewed", occurredAt: ago(2 * HOUR), eventId: "pv-1" });
    t.like(repeat.body, { historical: true, duplicate: true, inserted: 0, duplicates: 1, event: { id: old.body.event.id } });

    t.deepEqual(
      published.map((event) => event.customEventId),
      [recent.body.event.id],
      "only the live event is published",
    );
    const stored = await knex("custom_events").where({ company_id: a.companyId, id: old.body.event.id }).first();
    t.true(Boolean(stored.historical));

    const tooOld = await post("/subscribers/events", { email: "di@example.com", event: "page.viewed", occurredAt: ago(5 * YEAR + 10 * 24 * HOUR) });
    t.is(tooOld.status, 400);
    t.deepEqual(tooOld.body, { success: false, error: "occurredAt must be within the last 5 years" });
    t.is((await knex("custom_events").where({ company_id: a.companyId })).length, 2);
  });

  test(name("bulk: in order, one contact, history in one batch, 1-500 events"), async (t) => {
    const { post, published, knex, a } = await setup(t);
    const live = await post("/subscribers/events/bulk", {
      email: "ed@example.com",
      firstName: "Ed",
      events: [
        { name: "step.one", properties: { n: 1 } },
        { name: "step.two", eventId: "s2" },
        { name: "step.one", properties: { n: 3 } },
        { name: "step.two", eventId: "s2" },
      ],
    });
    t.is(live.status, 200);
    t.like(live.body.subscriber, { email: "ed@example.com", created: true });
    t.deepEqual(
      live.body.events.map((event: { name: string; definitionCreated: boolean; duplicate?: boolean }) => [
        event.name,
        event.definitionCreated,
        event.duplicate ?? false,
      ]),
      [
        ["step.one", true, false],
        ["step.two", true, false],
        ["step.one", false, false],
        ["step.two", false, true],
      ],
    );
    t.is(live.body.events[3].id, live.body.events[1].id);
    t.deepEqual(
      published.map((event) => event.customEventId),
      live.body.events.slice(0, 3).map((event: { id: string }) => event.id),
      "published in order, the repeat not",
    );

    const history = await post("/subscribers/events/bulk", {
      email: "ed@example.com",
      events: Array.from({ length: 500 }, (_, i) => ({ name: i % 2 ? "old.odd" : "old.even", occurredAt: ago(2 * HOUR + i * MINUTE), eventId: `h-${i}` })),
    });
    t.is(history.status, 200);
    t.true(history.body.historical);
    t.is(history.body.events.length, 500);
    t.deepEqual(
      history.body.events.slice(0, 3).map((event: { name: string; definitionCreated: boolean }) => [event.name, event.definitionCreated]),
      [
        ["old.even", true],
        ["old.odd", true],
        ["old.even", false],
      ],
    );
    t.is(published.length, 3, "history publishes nothing");
    const counts = await knex("event_definitions").where({ company_id: a.companyId }).whereIn("name", ["old.even", "old.odd"]).orderBy("name");
    t.deepEqual(
      counts.map((row) => Number(row.event_count)),
      [250, 250],
    );

    const tooMany = await post("/subscribers/events/bulk", { email: "ed@example.com", events: Array.from({ length: 501 }, () => ({ name: "x" })) });
    t.is(tooMany.status, 422);
    t.deepEqual(tooMany.body.errors, [{ path: "events", message: "must contain at most 500 items" }]);
    const empty = await post("/subscribers/events/bulk", { email: "ed@example.com", events: [] });
    t.is(empty.status, 422);
    const unnamed = await post("/subscribers/events/bulk", { email: "ed@example.com", events: [{ name: "ok" }, { properties: {} }] });
    t.is(unnamed.status, 422);
    t.deepEqual(unnamed.body.errors, [{ path: "events.1.name", message: "is required" }]);
    const oneTooOld = await post("/subscribers/events/bulk", { email: "ed@example.com", events: [{ name: "ok" }, { name: "ok", occurredAt: ago(6 * YEAR) }] });
    t.is(oneTooOld.status, 400);
    t.is(oneTooOld.body.error, "events.1.occurredAt must be within the last 5 years");
    t.is((await knex("custom_events").where({ company_id: a.companyId, name: "ok" })).length, 0, "nothing of a refused batch is stored");
  });

  test(name("imports: many contacts, per-event failures, duplicates and counts"), async (t) => {
    const { post, published } = await setup(t);
    await post("/subscribers/events", { email: "known@example.com", externalId: "known-1", event: "signed_up" });
    published.length = 0;
    const body = {
      events: [
        { email: "new@example.com", name: "trial.started", eventId: "t-1", properties: { plan: "pro" } },
        { externalId: "known-1", name: "trial.started", eventId: "t-2" },
        { externalId: "ghost", name: "trial.started", eventId: "t-3" },
        { email: "new@example.com", name: "trial.started", eventId: "t-1" },
        { email: "old@example.com", name: "trial.started", eventId: "t-4", occurredAt: ago(3 * HOUR) },
        { email: "old@example.com", name: "trial.started", eventId: "t-5", occurredAt: ago(6 * YEAR) },
      ],
    };
    const imported = await post("/subscribers/events/imports", body);
    t.is(imported.status, 200);
    t.deepEqual(imported.body, {
      success: true,
      total: 6,
      recorded: 3,
      duplicates: 1,
      failed: 2,
      sideEffectFailed: 0,
      subscribers: 3,
      failures: [
        { index: 2, name: "trial.started", eventId: "t-3", externalId: "ghost", error: "Subscriber not found" },
        { index: 5, name: "trial.started", eventId: "t-5", email: "old@example.com", error: "events.5.occurredAt must be within the last 5 years" },
      ],
      sideEffectFailures: [],
    });
    // The events of an import are recorded together, so they may be published in any order.
    t.deepEqual(published.map((event) => [event.email, event.source]).sort(), [
      ["known@example.com", "import"],
      ["new@example.com", "import"],
    ]);

    const noEventId = await post("/subscribers/events/imports", { events: [{ email: "a@example.com", name: "x" }] });
    t.is(noEventId.status, 422);
    t.deepEqual(noEventId.body.errors, [{ path: "events.0.eventId", message: "is required" }]);
    const tooMany = await post("/subscribers/events/imports", {
      events: Array.from({ length: 26 }, (_, i) => ({ email: "a@example.com", name: "x", eventId: `${i}` })),
    });
    t.is(tooMany.status, 422);
  });

  test(name("listener failures are reported as sideEffectFailures; the event stays recorded"), async (t) => {
    const { api, post, knex, a } = await setup(t);
    api.runtime.container.get<ContactEvents>(ContactEvents).subscribe(() => {
      throw new Error("automation engine unavailable");
    });
    const sent = await post("/subscribers/events", { email: "fay@example.com", event: "x.happened" });
    t.is(sent.status, 200);
    t.deepEqual(sent.body.sideEffectFailures, ["automation engine unavailable"]);
    t.truthy(await knex("custom_events").where({ company_id: a.companyId, id: sent.body.event.id }).first());
    const imported = await post("/subscribers/events/imports", { events: [{ email: "fay@example.com", name: "x.happened", eventId: "e1" }] });
    t.like(imported.body, { recorded: 1, sideEffectFailed: 1 });
    t.deepEqual(imported.body.sideEffectFailures[0].errors, ["automation engine unavailable"]);
  });

  test(name("schemas list the company's definitions and the documented catalog; sample payloads"), async (t) => {
    const { post, get } = await setup(t);
    await post("/subscribers/events", { email: "gus@example.com", event: "app.exported", properties: { format: "csv", rows: 10 } });
    await post("/subscribers/events", { email: "gus@example.com", event: "app.exported", properties: { format: "pdf", rows: 3, pages: [1, 2], meta: null } });
    await post("/subscribers/events", { email: "gus@example.com", event: "saas.purchase", properties: { plan: "team" } });

    const schemas = await get("/events/schemas");
    t.is(schemas.status, 200);
    t.is(schemas.body.eventName, null);
    t.is(typeof schemas.body.note, "string");
    const byName = new Map(schemas.body.events.map((event: { eventName: string }) => [event.eventName, event]));
    t.like(byName.get("app.exported"), { documented: false, label: "Exported", category: "app", documentedProviders: [], eventCount: 2 });
    t.deepEqual((byName.get("app.exported") as { providers: unknown }).providers, [
      {
        provider: "observed",
        examplePayload: { format: "pdf", rows: 3, pages: [1, 2], meta: null },
        properties: [
          { name: "format", type: "string" },
          { name: "meta", type: "null" },
          { name: "pages", type: "array" },
          { name: "rows", type: "number" },
        ],
      },
    ]);
    const purchase = byName.get("saas.purchase") as {
      documented: boolean;
      documentedProviders: string[];
      providers: Array<{ provider: string }>;
      eventCount: number;
    };
    t.true(purchase.documented);
    t.deepEqual(purchase.documentedProviders, ["api"]);
    t.deepEqual(
      purchase.providers.map((p) => p.provider),
      ["api", "observed"],
    );
    t.is(purchase.eventCount, 1);
    t.like(byName.get("ecommerce.order_placed"), { documented: true, eventCount: 0, lastSeenAt: null });

    const one = await get("/events/schemas?eventName=app.exported");
    t.is(one.body.eventName, "app.exported");
    t.deepEqual(
      one.body.events.map((event: { eventName: string }) => event.eventName),
      ["app.exported"],
    );
    const observedOnly = await get("/events/schemas?provider=observed");
    t.deepEqual(observedOnly.body.events.map((event: { eventName: string }) => event.eventName).sort(), ["app.exported", "saas.purchase"]);

    const sample = await get("/events/sample?eventName=app.exported");
    t.is(sample.status, 200);
    t.like(sample.body, { success: true, eventName: "app.exported", documented: false, source: "observed", examplePayload: { format: "pdf", rows: 3 } });
    const catalog = await get("/events/sample?eventName=ecommerce.order_placed");
    t.like(catalog.body, { source: "catalog", documented: true, occurredAt: null });
    t.is(typeof catalog.body.examplePayload.orderId, "string");
    const unknown = await get("/events/sample?eventName=never.sent");
    t.is(unknown.status, 404);
    t.is(unknown.body.error, "Event not found");
    t.is((await get("/events/sample")).status, 422);
  });

  test(name("tenancy: another company sees none of the events, contacts or definitions"), async (t) => {
    const { post, get, b, knex } = await setup(t);
    const sent = await post("/subscribers/events", {
      email: "hal@example.com",
      externalId: "hal",
      event: "secret.thing",
      eventId: "s-1",
      properties: { x: 1 },
    });
    t.is(sent.status, 200);

    const schemas = await get("/events/schemas", b.ownerKey);
    t.false(schemas.body.events.some((event: { eventName: string }) => event.eventName === "secret.thing"));
    t.is((await get("/events/sample?eventName=secret.thing", b.ownerKey)).status, 404);
    t.is((await post("/subscribers/events", { externalId: "hal", event: "secret.thing" }, b.ownerKey)).status, 404);
    // The same eventId in company B is B's own event on B's own new contact.
    const own = await post("/subscribers/events", { email: "hal@example.com", event: "secret.thing", eventId: "s-1" }, b.ownerKey);
    t.is(own.status, 200);
    t.true(own.body.subscriber.created);
    t.not(own.body.subscriber.id, sent.body.subscriber.id);
    t.false("duplicate" in own.body);
    t.true(own.body.event.definitionCreated);
    t.is((await knex("custom_events").where({ company_id: b.companyId })).length, 1);
  });

  test(name("scopes: events:write records, events:read reads"), async (t) => {
    const { api, a, post, get } = await setup(t);
    const reader = await createMemberKeyFixture(api.runtime.container, a.companyId, { role: "owner", scopes: ["events:read"] });
    const denied = await post("/subscribers/events", { email: "ivy@example.com", event: "x" }, reader.key);
    t.is(denied.status, 403);
    t.is(denied.body.error, "API key is missing required scope: events:write");
    t.is((await get("/events/schemas", reader.key)).status, 200);
    const writer = await createMemberKeyFixture(api.runtime.container, a.companyId, { role: "owner", scopes: ["events:write"] });
    t.is((await post("/subscribers/events", { email: "ivy@example.com", event: "x" }, writer.key)).status, 200);
    t.is((await get("/events/schemas", writer.key)).status, 403);
  });
}
