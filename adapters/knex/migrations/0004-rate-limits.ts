import type { Knex } from "knex";

/** Rate-limit counters when they live in Postgres (the layout rate-limiter-flexible expects). */
export const name = "0004-rate-limits";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("rate_limits", (table) => {
    table.string("key", 255).primary();
    table.integer("points").notNullable().defaultTo(0);
    table.bigInteger("expire");
    table.index(["expire"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("rate_limits");
}
