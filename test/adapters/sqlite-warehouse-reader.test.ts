import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test from "ava";
import knexFactory from "knex";
import { SqliteWarehouseReader } from "../../adapters/warehouse/sqlite-warehouse-reader.js";

/**
 * The reader's child process may start slowly on a busy machine: its statement timeout counts
 * from the moment the process is up. Here every child spends 1.5 s before it runs (a preloaded
 * module that busy-waits), longer than the 1 s statement timeout of a query that itself is quick.
 */
test("the statement timeout counts the statement, not a slow start of the reader process", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "warehouse-reader-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, "warehouse.sqlite");
  const db = knexFactory({ client: "better-sqlite3", connection: { filename: path }, useNullAsDefault: true });
  await db.schema.createTable("people", (table) => table.text("mail"));
  await db("people").insert({ mail: "ada@example.com" });
  await db.destroy();
  const slowStart = join(dir, "slow-start.cjs");
  writeFileSync(slowStart, "const until = Date.now() + 1500; while (Date.now() < until) {}\n");

  const before = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = `${before ?? ""} --require ${slowStart}`.trim();
  t.teardown(() => {
    if (before === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = before;
  });
  const reader = new SqliteWarehouseReader();
  t.deepEqual(await reader.columns(`sqlite:${path}`, "select mail from people", 1_000), ["mail"]);
  // (That a statement past its timeout is stopped is tested with the warehouse syncs.)
});
