import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Integrations with payment, identity, analytics and affiliate providers (spec, Integration):
 * one row per company and provider, its credentials sealed (never in plain text). A provider
 * account is connected to one workspace at a time (partial unique index over active rows).
 * And the inbox of their webhooks: every delivery recorded once per provider event ID, then
 * processed by a job; the activity route lists the recent ones.
 */
export const name = "0038-integrations";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("integrations", (table) => {
    id(table).primary();
    companyId(table);
    table.string("provider", 20).notNullable();
    table.string("name", 255).notNullable();
    table.string("provider_account_id", 255).notNullable();
    table.boolean("is_active").notNullable();
    table.boolean("sync_enabled").notNullable();
    table.string("sync_status", 20);
    /** apiKey, webhookSecret and the analytics history credentials, sealed together. */
    table.text("credentials_sealed").notNullable();
    /** Non-secret settings: the analytics provider's event allowlist, the list targeting. */
    jsonDocument(table, "settings").notNullable();
    /** Where the last (or current) sync is: kind, cursor, counts; resumed after a crash. */
    jsonDocument(table, "sync_state");
    timestamp(table, "last_sync_at");
    table.text("last_sync_error");
    timestamp(table, "connected_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.unique(["company_id", "provider"], { indexName: "integrations_company_provider" });
  });
  await knex.raw("create unique index integrations_active_account on integrations (provider, provider_account_id) where is_active = true");

  await knex.schema.createTable("integration_deliveries", (table) => {
    id(table).primary();
    companyId(table);
    id(table, "integration_id").notNullable().references("id").inTable("integrations").onDelete("CASCADE");
    table.string("provider", 20).notNullable();
    table.string("provider_event_id", 255).notNullable();
    table.string("event_type", 255).notNullable();
    table.string("status", 20).notNullable();
    /** The verified body, as received. */
    table.text("body").notNullable();
    jsonDocument(table, "outcome");
    table.text("error");
    timestamp(table, "received_at").notNullable();
    timestamp(table, "processed_at");
    table.unique(["company_id", "provider", "provider_event_id"], { indexName: "integration_deliveries_event" });
    table.index(["company_id", "received_at"], "integration_deliveries_company_received");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("integration_deliveries");
  await knex.schema.dropTableIfExists("integrations");
}
