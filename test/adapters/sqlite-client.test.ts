import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";
import { createKnex } from "../../adapters/knex/connection.js";

async function numbers(t: { teardown(fn: () => Promise<void>): void }) {
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-sqlite-client-"));
  const knex = createKnex(`sqlite:${join(dir, "db.sqlite")}`);
  t.teardown(async () => {
    await knex.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  await knex.schema.createTable("numbers", (table) => table.integer("n"));
  await knex("numbers").insert(Array.from({ length: 10 }, (_, i) => ({ n: i + 1 })));
  return knex;
}

test("SQLite statements carry their LIMIT as a number, so a cached statement runs without being prepared again", async (t) => {
  const knex = await numbers(t);
  t.deepEqual(knex("numbers").where({ n: 3 }).first().toSQL().toNative(), { sql: "select * from `numbers` where `n` = ? limit 1", bindings: [3] });
  t.deepEqual(knex("numbers").orderBy("n").limit(3).offset(4).toSQL().toNative(), {
    sql: "select * from `numbers` order by `n` asc limit 3 offset ?",
    bindings: [4],
  });
  await knex.transaction(async (trx) => t.regex(trx("numbers").first().toSQL().sql, /limit 1$/));
});

test("SQLite reads with limits and offsets return the same rows as before", async (t) => {
  const knex = await numbers(t);
  t.deepEqual(await knex("numbers").where("n", ">", 4).orderBy("n").first(), { n: 5 });
  t.deepEqual(await knex("numbers").orderBy("n").limit(3).offset(4), [{ n: 5 }, { n: 6 }, { n: 7 }]);
  t.deepEqual(await knex("numbers").orderBy("n").offset(8), [{ n: 9 }, { n: 10 }], "an offset alone reads to the end");
  t.deepEqual(await knex("numbers").orderBy("n").limit(0), []);
  t.deepEqual(await knex("numbers").whereIn("n", knex("numbers").select("n").orderBy("n", "desc").limit(2)).orderBy("n"), [{ n: 9 }, { n: 10 }]);
  await knex.transaction(async (trx) => t.deepEqual(await trx("numbers").orderBy("n", "desc").first(), { n: 10 }));
});
