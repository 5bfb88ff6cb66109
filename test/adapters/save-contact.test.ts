import test from "ava";
import { ManualClock } from "../../adapters/memory/manual-clock.js";
import { createCompanyFixture } from "../../fixtures/companies.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { SaveContact } from "../../core/subscribers/save-contact.js";
import { dialects } from "../helpers/databases.js";
import { startTestRuntime } from "../helpers/runtime.js";

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: save contact: ${title}`;

  async function setup(t: import("ava").ExecutionContext) {
    const database = await dialect.create();
    const clock = new ManualClock("2026-11-22T10:00:00.000Z");
    const runtime = await startTestRuntime(database, clock);
    t.teardown(async () => {
      await runtime.close();
      await database.drop();
    });
    const a = await createCompanyFixture(runtime.container);
    const b = await createCompanyFixture(runtime.container);
    return {
      save: runtime.container.get(SaveContact),
      subscribers: runtime.container.get<SubscriberRepository>(SubscriberRepository),
      clock,
      a,
      b,
      knex: runtime.knex,
    };
  }

  test(name("creates with normalised tags, lists by name, typed attributes; skip leaves it alone"), async (t) => {
    const { save, a, b, subscribers } = await setup(t);
    const created = await save.execute(
      a.companyId,
      {
        email: "ada@gmail.com",
        firstName: "Ada",
        customAttributes: { plan: "pro", seats: 3, beta: true, meta: { a: [1, null] } },
        tags: ["Pro Customer", "pro_customer", "VIP!"],
        lists: ["Newsletter"],
      },
      "skip",
    );
    if (created._tag === "Left") return t.fail(created.left.message);
    const contact = created.right.subscriber;
    t.true(created.right.created);
    t.regex(contact.id, /^sub_/);
    t.is(contact.emailProvider, "gmail");
    t.deepEqual(contact.tags, ["pro-customer", "vip"]);
    t.deepEqual(contact.customAttributes, { plan: "pro", seats: 3, beta: true, meta: { a: [1, null] } });
    t.is(contact.status, "active");

    const again = await save.execute(a.companyId, { email: "ada@gmail.com", firstName: "Changed", tags: ["new"] }, "skip");
    if (again._tag === "Left") return t.fail(again.left.message);
    t.true(again.right.skipped);
    t.is((await subscribers.findByEmail(a.companyId, "ada@gmail.com"))?.firstName, "Ada");
    t.is(await subscribers.findByEmail(b.companyId, "ada@gmail.com"), null, "another company does not see it");
  });

  test(name("merge adds, overwrite replaces, nothing reactivates an unsubscribed contact"), async (t) => {
    const { save, a } = await setup(t);
    await save.execute(
      a.companyId,
      { email: "bo@example.com", firstName: "Bo", lastName: "Li", status: "unsubscribed", customAttributes: { a: 1 }, tags: ["one"] },
      "skip",
    );
    const merged = await save.execute(
      a.companyId,
      { email: "bo@example.com", lastName: "Lee", status: "active", customAttributes: { b: 2 }, tags: ["two"] },
      "merge",
    );
    if (merged._tag === "Left") return t.fail(merged.left.message);
    t.like(merged.right.subscriber, { firstName: "Bo", lastName: "Lee", status: "unsubscribed" });
    t.deepEqual(merged.right.subscriber.customAttributes, { a: 1, b: 2 });
    t.deepEqual(merged.right.subscriber.tags, ["one", "two"]);
    const overwritten = await save.execute(
      a.companyId,
      { email: "bo@example.com", firstName: "Bob", customAttributes: { c: 3 }, tags: ["three"] },
      "overwrite",
    );
    if (overwritten._tag === "Left") return t.fail(overwritten.left.message);
    t.like(overwritten.right.subscriber, { firstName: "Bob", lastName: null, status: "unsubscribed" });
    t.deepEqual(overwritten.right.subscriber.customAttributes, { c: 3 });
    t.deepEqual(overwritten.right.subscriber.tags, ["three"]);
  });

  test(name("refuses the reserved attribute, unknown list IDs, externalId clashes and contacts without email"), async (t) => {
    const { save, a } = await setup(t);
    const reserved = await save.execute(a.companyId, { email: "x@example.com", customAttributes: { account: "acme" } }, "skip");
    t.like(reserved, { _tag: "Left", left: { _tag: "BadRequest", message: "The custom attribute name 'account' is reserved for accounts" } });
    const unknownList = await save.execute(a.companyId, { email: "x@example.com", lists: ["list_01JD8ZZZZZZZZZZZZZZZZZZZZZ"] }, "skip");
    t.like(unknownList, { _tag: "Left", left: { _tag: "NotFound" } });
    await save.execute(a.companyId, { email: "one@example.com", externalId: "u/1" }, "skip");
    await save.execute(a.companyId, { email: "two@example.com" }, "skip");
    const clash = await save.execute(a.companyId, { email: "two@example.com", externalId: "u/1" }, "merge");
    t.like(clash, { _tag: "Left", left: { _tag: "Conflict" } });
    const noEmail = await save.execute(a.companyId, { externalId: "nobody" }, "skip");
    t.like(noEmail, { _tag: "Left", left: { _tag: "BadRequest", message: "email is required to create a subscriber" } });
    const byExternal = await save.execute(a.companyId, { externalId: "u/1", firstName: "One" }, "merge");
    t.like(byExternal, { _tag: "Right", right: { subscriber: { email: "one@example.com", firstName: "One" } } });
  });

  test(name("concurrent creates of one address make one contact"), async (t) => {
    const { save, a, knex } = await setup(t);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => save.execute(a.companyId, { email: "race@example.com", tags: [`t${i}`] }, "merge")));
    t.true(results.every((r) => r._tag === "Right"));
    const rows = await knex("subscribers").where({ company_id: a.companyId }).select("email");
    t.deepEqual(
      rows.map((row: { email: string }) => row.email),
      ["race@example.com"],
    );
  });
}
