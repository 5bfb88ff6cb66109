import test from "ava";
import { ManualClock } from "../../adapters/memory/manual-clock.js";
import { createCompanyFixture } from "../../fixtures/companies.js";
import { ContactEvents, type ContactEvent } from "../../core/events/contact-events.js";
import { CustomEventRepository } from "../../core/events/ports.js";
import { RecordCustomEvent } from "../../core/events/record-custom-event.js";
import { SaveContact } from "../../core/subscribers/save-contact.js";
import { dialects } from "../helpers/databases.js";
import { startTestRuntime } from "../helpers/runtime.js";

const NOW = "2026-11-22T10:00:00.000Z";

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: record custom event: ${title}`;

  async function setup(t: import("ava").ExecutionContext) {
    const database = await dialect.create();
    const clock = new ManualClock(NOW);
    const runtime = await startTestRuntime(database, clock);
    t.teardown(async () => {
      await runtime.close();
      await database.drop();
    });
    const company = await createCompanyFixture(runtime.container);
    const saved = await runtime.container.get(SaveContact).execute(company.companyId, { email: "ada@example.com" }, "skip");
    if (saved._tag === "Left") throw new Error(saved.left.message);
    const contact = { companyId: company.companyId, id: saved.right.subscriber.id, email: saved.right.subscriber.email };
    const published: ContactEvent[] = [];
    runtime.container.get<ContactEvents>(ContactEvents).subscribe((event) => void published.push(event));
    return {
      record: runtime.container.get(RecordCustomEvent),
      repository: runtime.container.get<CustomEventRepository>(CustomEventRepository),
      knex: runtime.knex,
      contact,
      published,
    };
  }

  const live = (eventId: string | null, minutesAgo = 0) => ({
    name: "saas.purchase",
    properties: { plan: "pro", amount: 49.5, tags: ["a"] },
    occurredAt: new Date(Date.parse(NOW) - minutesAgo * 60_000),
    eventId,
    source: "api" as const,
  });

  test(name("concurrent identical eventIds store one row and publish once"), async (t) => {
    const { record, knex, contact, published, repository } = await setup(t);
    const results = await Promise.all(Array.from({ length: 8 }, () => record.execute(contact, live("order-1"))));
    const rows = await knex("custom_events").where({ company_id: contact.companyId });
    t.is(rows.length, 1);
    t.true(results.every((result) => result.id === rows[0].id));
    t.is(results.filter((result) => !result.duplicate).length, 1);
    t.is(results.filter((result) => result.definitionCreated).length, 1);
    t.is(published.length, 1);
    const [definition] = await repository.listDefinitions(contact.companyId, "saas.purchase");
    t.is(definition?.eventCount, 1);
    const stored = await repository.lastEvent(contact.companyId, "saas.purchase");
    t.deepEqual(stored?.properties, { plan: "pro", amount: 49.5, tags: ["a"] });
  });

  test(name("events without eventId are all stored; definition counted; history is not published"), async (t) => {
    const { record, repository, contact, published } = await setup(t);
    const first = await record.execute(contact, live(null));
    const second = await record.execute(contact, live(null, 30));
    const old = await record.execute(contact, live(null, 61));
    t.true(first.definitionCreated);
    t.false(second.definitionCreated);
    t.false(second.historical);
    t.true(old.historical);
    t.deepEqual(
      published.map((event) => event.customEventId),
      [first.id, second.id],
    );
    const [definition] = await repository.listDefinitions(contact.companyId, null);
    t.like(definition, { name: "saas.purchase", eventCount: 3 });
  });

  test(name("a historical batch is written at once; repeated eventIds in it return the original"), async (t) => {
    const { record, repository, contact, published } = await setup(t);
    const events = [live("a", 120), live("b", 180), live("a", 240), { ...live("c", 300), name: "saas.trial_started" }];
    const recorded = await record.executeMany(contact, events);
    t.deepEqual(
      recorded.map((event) => [event.duplicate, event.definitionCreated, event.historical]),
      [
        [false, true, true],
        [false, false, true],
        [true, false, true],
        [false, true, true],
      ],
    );
    t.is(recorded[2]?.id, recorded[0]?.id);
    t.is(published.length, 0);
    const counts = Object.fromEntries((await repository.listDefinitions(contact.companyId, null)).map((d) => [d.name, d.eventCount]));
    t.deepEqual(counts, { "saas.purchase": 2, "saas.trial_started": 1 });
    const again = await record.executeMany(contact, events);
    t.true(again.every((event) => event.duplicate));
  });

  test(name("events written together by concurrent requests: one failing event fails only its own request"), async (t) => {
    const { record, knex, contact, published } = await setup(t);
    const ghost = { ...contact, id: "sub_deleted_meanwhile" };
    const [good, bad, other] = await Promise.allSettled([
      record.execute(contact, live(null)),
      record.execute(ghost, live(null)),
      record.execute(contact, { ...live(null), name: "saas.trial_started" }),
    ]);
    t.is(good.status, "fulfilled");
    t.is(bad.status, "rejected");
    t.is(other.status, "fulfilled");
    const rows = await knex("custom_events").where({ company_id: contact.companyId }).orderBy("name");
    t.deepEqual(
      rows.map((row) => [row.subscriber_id, row.name]),
      [
        [contact.id, "saas.purchase"],
        [contact.id, "saas.trial_started"],
      ],
    );
    t.is(published.length, 2);
  });
}
