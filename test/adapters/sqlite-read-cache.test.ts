import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";
import { createKnex } from "../../adapters/knex/connection.js";
import { SqliteReadCache } from "../../adapters/knex/sqlite-read-cache.js";

test("cached reads last until this process writes to a table they read or another process commits", async (t) => {
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
  await ours.schema.createTable("others", (table) => {
    table.string("id");
  });
  await ours("things").insert({ id: "1", name: "first" });

  const cache = SqliteReadCache.for(ours);
  t.is(SqliteReadCache.for(ours), cache, "one cache per knex instance");
  let loads = 0;
  const read = () =>
    cache.read("thing:1", ["things"], async () => {
      loads += 1;
      return (await ours("things").where({ id: "1" }))[0]?.name as string;
    });

  t.is(await read(), "first");
  t.is(await read(), "first");
  t.is(loads, 1, "the second read came from memory");

  await ours("things").where({ id: "1" }).update({ name: "second" });
  t.is(await read(), "second", "a write through this process to the table forgets the read");
  t.is(loads, 2);

  await ours("others").insert({ id: "x" });
  await ours.transaction(async (trx) => {
    await trx("others").where({ id: "x" }).update({ id: "y" });
    await trx("others").where({ id: "y" }).delete();
  });
  t.is(await read(), "second");
  t.is(loads, 2, "writes to other tables, in a transaction or not, keep it");
  await ours.raw("update things set name = 'raw' where id = '1'");
  t.is(await read(), "raw", "a raw statement may write anything: it forgets every read");
  t.is(loads, 3);
  await ours("things").where({ id: "1" }).update({ name: "second" });
  t.is(await read(), "second");
  t.is(loads, 4);

  await theirs("things").where({ id: "1" }).update({ name: "third" });
  // Another process's commit is noticed from the next event-loop turn: the next request.
  await new Promise((resolve) => setImmediate(resolve));
  t.is(await read(), "third", "a commit by another connection forgets it too");
  t.is(loads, 5);
  t.is(await read(), "third");
  t.is(loads, 5);

  // A write declared harmless keeps what is cached; any other write still forgets it.
  cache.ignoreWrites(/^update `things` set `seen_at`/);
  await ours.schema.alterTable("things", (table) => table.string("seen_at"));
  t.is(await read(), "third");
  t.is(loads, 6, "the schema change forgot the cache");
  await ours("things").where({ id: "1" }).update({ seen_at: "now" });
  t.is(await read(), "third");
  t.is(loads, 6);
  await ours("things").where({ id: "1" }).update({ name: "fourth" });
  t.is(await read(), "fourth");
  t.is(loads, 7);

  // A write landing while a read is loading keeps that read from being cached.
  let release: (() => void) | undefined;
  const loading = cache.read("thing:slow", ["things"], async () => {
    const name = (await ours("things").where({ id: "1" }))[0]?.name as string;
    await new Promise<void>((resolve) => (release = resolve));
    return name;
  });
  while (!release) await new Promise((resolve) => setImmediate(resolve));
  await ours("things").where({ id: "1" }).update({ name: "fifth" });
  release();
  t.is(await loading, "fourth");
  t.is(await cache.read("thing:slow", ["things"], async () => "read again"), "read again");
});

test("past 10,000 cached reads the oldest is forgotten, not the rest", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-cache-"));
  const knex = createKnex(`sqlite:${join(dir, "db.sqlite")}`);
  t.teardown(async () => {
    await knex.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  await knex.raw("select 1");
  const cache = SqliteReadCache.for(knex);
  const loaded: string[] = [];
  const read = (key: string) =>
    cache.read(key, ["things"], async () => {
      loaded.push(key);
      return key;
    });
  for (let i = 0; i <= 10_000; i++) await read(`k${i}`);
  loaded.length = 0;
  await read("k1");
  await read("k10000");
  await read("k0");
  t.deepEqual(loaded, ["k0"], "only the first read was let go");
});

const postgresUrl = process.env.TEST_DATABASE_URL;
if (postgresUrl)
  test("on Postgres every read goes to the database", async (t) => {
    const knex = createKnex(postgresUrl);
    t.teardown(() => knex.destroy());
    let loads = 0;
    const cache = SqliteReadCache.for(knex);
    await cache.read("k", ["things"], async () => ++loads);
    await cache.read("k", ["things"], async () => ++loads);
    t.is(loads, 2);
  });
