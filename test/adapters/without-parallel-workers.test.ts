import test from "ava";
import knexFactory from "knex";
import { withoutParallelWorkers } from "../../adapters/knex/without-parallel-workers.js";
import { dialects, openTestKnex } from "../helpers/databases.js";

for (const dialect of dialects()) {
  test(`${dialect.name}: a read without parallel workers gets its rows, and the setting does not outlive it`, async (t) => {
    const knex = await openTestKnex(t, dialect);
    t.deepEqual(await withoutParallelWorkers(knex, knex.select(knex.raw("7 as seven"))), [{ seven: 7 }]);
    if (dialect.name !== "postgres") return;

    // One connection, so the read after is on the connection the setting was made on.
    const single = knexFactory({ ...knex.client.config, pool: { min: 1, max: 1 } });
    t.teardown(() => single.destroy());
    const setting = () => single.select(single.raw("current_setting('max_parallel_workers_per_gather') as workers"));
    const before = ((await setting()) as Array<{ workers: string }>)[0]!.workers;
    t.not(before, "0");
    t.deepEqual(await withoutParallelWorkers(single, setting()), [{ workers: "0" }]);
    t.deepEqual(await setting(), [{ workers: before }]);
  });
}
