import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";
import { createKnex } from "../../adapters/knex/connection.js";
import { SqliteReadCache } from "../../adapters/knex/sqlite-read-cache.js";

test("cached reads last until this process writes or another process commits", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-cache-"));
  const ours = createKnex(`sqlite:${join(dir, "db.sqlite")}`);
  const theirs = createKnex(`sqlite:${join(dir, "db.sqlite")}`);
  t.teardown(async () => {
    await ours.destroy();
    await theirs.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  await ours.schema.createTable("things", (table) => {
    table.string("id");
    table.string("name");
  });
  await ours("things").insert({ id: "1", name: "first" });

  const cache = SqliteReadCache.for(ours);
  t.is(SqliteReadCache.for(ours), cache, "one cache per knex instance");
  let loads = 0;
  const read = () =>
    cache.read("thing:1", async () => {
      loads += 1;
      return (await ours("things").where({ id: "1" }))[0]?.name as string;
    });

  t.is(await read(), "first");
  t.is(await read(), "first");
  t.is(loads, 1, "the second read came from memory");

  await ours("things").where({ id: "1" }).update({ name: "second" });
  t.is(await read(), "second", "a write through this process forgets the cache");
  t.is(loads, 2);

  await theirs("things").where({ id: "1" }).update({ name: "third" });
  // Another process's commit is noticed from the next event-loop turn: the next request.
  await new Promise((resolve) => setImmediate(resolve));
  t.is(await read(), "third", "a commit by another connection forgets it too");
  t.is(loads, 3);
  t.is(await read(), "third");
  t.is(loads, 3);

  // A write declared harmless keeps what is cached; any other write still forgets it.
  cache.ignoreWrites(/^update `things` set `seen_at`/);
  await ours.schema.alterTable("things", (table) => table.string("seen_at"));
  t.is(await read(), "third");
  t.is(loads, 4, "the schema change forgot the cache");
  await ours("things").where({ id: "1" }).update({ seen_at: "now" });
  t.is(await read(), "third");
  t.is(loads, 4);
  await ours("things").where({ id: "1" }).update({ name: "fourth" });
  t.is(await read(), "fourth");
  t.is(loads, 5);
});

const postgresUrl = process.env.TEST_DATABASE_URL;
if (postgresUrl)
  test("on Postgres every read goes to the database", async (t) => {
    const knex = createKnex(postgresUrl);
    t.teardown(() => knex.destroy());
    let loads = 0;
    const cache = SqliteReadCache.for(knex);
    await cache.read("k", async () => ++loads);
    await cache.read("k", async () => ++loads);
    t.is(loads, 2);
  });
