import type { Knex } from "knex";

/**
 * A warehouse sync is `idle` between runs whatever the last run's outcome (the spec's state): the
 * `failed` status is gone, its failure stays in last_error and consecutive_failures.
 */
export const name = "0021-warehouse-syncs-idle-between-runs";

export async function up(knex: Knex): Promise<void> {
  await knex("warehouse_syncs").where({ status: "failed" }).update({ status: "idle" });
}

/** An idle sync whose last run failed was `failed` before. */
export async function down(knex: Knex): Promise<void> {
  await knex("warehouse_syncs").where({ status: "idle" }).where("consecutive_failures", ">", 0).update({ status: "failed" });
}
