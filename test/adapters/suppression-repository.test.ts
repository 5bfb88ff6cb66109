import test, { type ExecutionContext } from "ava";
import { migrateToLatest } from "../../adapters/knex/migrate.js";
import { KnexSuppressionRepository } from "../../adapters/knex/repositories/suppression-repository.js";
import { UlidIdGenerator } from "../../adapters/system/ulid-id-generator.js";
import { REMOVABLE_REASONS } from "../../core/suppressions/model.js";
import { dialects, openTestKnex, type Dialect } from "../helpers/databases.js";
import { insertCompanyRow } from "../helpers/contact-rows.js";

const T1 = new Date("2026-11-22T10:00:00.000Z");
const T2 = new Date("2026-11-22T11:00:00.000Z");

async function repository(t: ExecutionContext, dialect: Dialect) {
  const knex = await openTestKnex(t, dialect);
  await migrateToLatest(knex);
  await insertCompanyRow(knex, "co_a");
  await insertCompanyRow(knex, "co_b");
  return { knex, suppressions: new KnexSuppressionRepository(knex, new UlidIdGenerator()) };
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: suppressions: ${title}`;

  test(name("an address is stored lower-cased and found however it is written"), async (t) => {
    const { suppressions } = await repository(t, dialect);
    const added = await suppressions.add({ companyId: "co_a", email: " Ann@Example.COM ", reason: "hard_bounce", emailSendId: "send_1", at: T1 });
    t.regex(added.id, /^sup_/);
    t.deepEqual({ ...added, id: "x" }, { id: "x", companyId: "co_a", email: "ann@example.com", reason: "hard_bounce", emailSendId: "send_1", createdAt: T1 });
    t.deepEqual(await suppressions.find("co_a", "ANN@example.com"), added);
    t.is(await suppressions.find("co_a", "bob@example.com"), null);
  });

  test(name("adding again keeps the first reason, send and time"), async (t) => {
    const { suppressions } = await repository(t, dialect);
    const first = await suppressions.add({ companyId: "co_a", email: "ann@example.com", reason: "unsubscribe", emailSendId: null, at: T1 });
    const again = await suppressions.add({ companyId: "co_a", email: "ANN@example.com", reason: "complaint", emailSendId: "send_2", at: T2 });
    t.deepEqual(again, first);
    t.is(again.reason, "unsubscribe");
    t.is(again.emailSendId, null);
  });

  test(name("concurrent adds of one address store one row, and every caller gets it"), async (t) => {
    const { knex, suppressions } = await repository(t, dialect);
    const reasons = ["hard_bounce", "complaint", "unsubscribe", "manual"] as const;
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        suppressions.add({
          companyId: "co_a",
          email: i % 2 ? "Race@Example.com" : "race@example.com",
          reason: reasons[i % 4]!,
          emailSendId: `send_${i}`,
          at: T1,
        }),
      ),
    );
    const rows = await knex("suppressions").where({ company_id: "co_a" });
    t.is(rows.length, 1);
    for (const result of results) t.deepEqual(result, results[0]);
    t.is(results[0]!.id, rows[0].id);
  });

  test(name("companies have separate lists"), async (t) => {
    const { suppressions } = await repository(t, dialect);
    await suppressions.add({ companyId: "co_a", email: "ann@example.com", reason: "manual", emailSendId: null, at: T1 });
    t.is(await suppressions.find("co_b", "ann@example.com"), null);
    t.false(await suppressions.remove("co_b", "ann@example.com", REMOVABLE_REASONS), "B cannot remove A's suppression");
    t.truthy(await suppressions.find("co_a", "ann@example.com"));
    const own = await suppressions.add({ companyId: "co_b", email: "ann@example.com", reason: "complaint", emailSendId: null, at: T2 });
    t.is(own.reason, "complaint", "B's own suppression of the same address");
    t.is((await suppressions.find("co_a", "ann@example.com"))?.reason, "manual");
  });

  test(name("remove lifts the suppression of the reasons given only; removing nothing says so; the address can be suppressed anew"), async (t) => {
    const { suppressions } = await repository(t, dialect);
    await suppressions.add({ companyId: "co_a", email: "ann@example.com", reason: "hard_bounce", emailSendId: null, at: T1 });
    t.true(await suppressions.remove("co_a", "ANN@EXAMPLE.COM", REMOVABLE_REASONS));
    t.is(await suppressions.find("co_a", "ann@example.com"), null);
    t.false(await suppressions.remove("co_a", "ann@example.com", REMOVABLE_REASONS));
    const anew = await suppressions.add({ companyId: "co_a", email: "ann@example.com", reason: "unsubscribe", emailSendId: null, at: T2 });
    t.deepEqual([anew.reason, anew.createdAt], ["unsubscribe", T2]);
    t.false(await suppressions.remove("co_a", "ann@example.com", REMOVABLE_REASONS), "an unsubscribe is not among them");
    t.false(await suppressions.remove("co_a", "ann@example.com", []));
    t.is((await suppressions.find("co_a", "ann@example.com"))?.reason, "unsubscribe");
    t.true(await suppressions.remove("co_a", "ann@example.com", ["unsubscribe"]));
  });
}
