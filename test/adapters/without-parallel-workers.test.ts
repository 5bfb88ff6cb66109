import test from "ava";
import { withoutParallelWorkers } from "../../adapters/knex/without-parallel-workers.js";
import { dialects, openTestKnex } from "../helpers/databases.js";

for (const dialect of dialects()) {
  test(`${dialect.name}: a read without parallel workers gets its rows, and the setting does not outlive it`, async (t) => {
    // One connection, so the read after is on the connection the setting was made on.
    const knex = await openTestKnex(t, dialect, { poolMax: 1 });
    t.deepEqual(await withoutParallelWorkers(knex, knex.select(knex.raw("7 as seven"))), [{ seven: 7 }]);
    if (dialect.name !== "postgres") return;

    const setting = () => knex.select(knex.raw("current_setting('max_parallel_workers_per_gather') as workers"));
    const before = ((await setting()) as Array<{ workers: string }>)[0]!.workers;
    t.not(before, "0");
    t.deepEqual(await withoutParallelWorkers(knex, setting()), [{ workers: "0" }]);
    t.deepEqual(await setting(), [{ workers: before }]);
  });
}
