import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * A company's tracking and consent settings (compat-reference §26): one row, written on the first
 * PATCH (no row: the defaults). And the double opt-in of contacts: a contact with an `opt_ins` row
 * not yet confirmed gets no marketing email (its `status` stays one the spec allows).
 */
export const name = "0023-tracking-settings";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("tracking_settings", (table) => {
    companyId(table).primary();
    table.boolean("open_tracking_enabled").notNullable().defaultTo(true);
    table.boolean("click_tracking_enabled").notNullable().defaultTo(true);
    table.boolean("unsubscribe_tracking_enabled").notNullable().defaultTo(true);
    table.boolean("strict_bot_filtering_enabled").notNullable().defaultTo(false);
    table.integer("default_attribution_window_hours").notNullable().defaultTo(72);
    table.boolean("double_opt_in_enabled").notNullable().defaultTo(false);
    id(table, "double_opt_in_email_id");
    table.boolean("auto_utm_enabled").notNullable().defaultTo(false);
    jsonDocument(table, "auto_utm_settings");
    timestamp(table, "updated_at").notNullable();
  });
  await knex.schema.createTable("opt_ins", (table) => {
    companyId(table);
    id(table, "subscriber_id").primary().references("id").inTable("subscribers").onDelete("CASCADE");
    timestamp(table, "requested_at").notNullable();
    /** The latest confirmation email queued: resending waits for the rate limit. */
    timestamp(table, "last_email_at");
    timestamp(table, "confirmed_at");
    table.index(["company_id", "confirmed_at"], "opt_ins_company_confirmed");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("opt_ins");
  await knex.schema.dropTableIfExists("tracking_settings");
}
