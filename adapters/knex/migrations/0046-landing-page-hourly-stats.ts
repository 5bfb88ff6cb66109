import type { Knex } from "knex";
import { companyId, id, timestamp } from "./schema-helpers.js";

/**
 * A landing page's views and conversions hour by hour, for its stats over a period. Crawlers'
 * views are kept apart, so the stats can show them on request while the page's own counters
 * stay people's. One row per page and hour that had any; counts before this migration exist
 * only in the page's all-time counters.
 */
export const name = "0046-landing-page-hourly-stats";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("landing_page_hourly_stats", (table) => {
    id(table, "landing_page_id").notNullable().references("id").inTable("landing_pages").onDelete("CASCADE");
    companyId(table);
    /** The start of the hour (UTC). */
    timestamp(table, "hour").notNullable();
    table.integer("views").notNullable().defaultTo(0);
    table.integer("bot_views").notNullable().defaultTo(0);
    table.integer("conversions").notNullable().defaultTo(0);
    table.primary(["landing_page_id", "hour"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("landing_page_hourly_stats");
}
