import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Web tracking keys (spec, Web tracking key): publishable keys of the browser tracking script,
 * found by their public key on every event request (unique index), listed newest first per company.
 * And the latest commerce forecast per company (spec, Metrics: `commerceForecast`), a snapshot
 * the worker replaces.
 */
export const name = "0034-web-tracking";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("web_tracking_keys", (table) => {
    id(table).primary();
    companyId(table);
    table.string("name", 255).notNullable();
    table.string("public_key", 100).notNullable().unique("web_tracking_keys_public_key");
    /** Normalized origins, a JSON array; empty: any site. */
    jsonDocument(table, "allowed_origins").notNullable();
    table.boolean("is_active").notNullable().defaultTo(true);
    timestamp(table, "last_used_at");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.index(["company_id", "created_at"], "web_tracking_keys_company_created");
  });
  await knex.schema.createTable("commerce_forecasts", (table) => {
    companyId(table).primary();
    jsonDocument(table, "snapshot").notNullable();
    timestamp(table, "evaluated_at").notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("commerce_forecasts");
  await knex.schema.dropTableIfExists("web_tracking_keys");
}
