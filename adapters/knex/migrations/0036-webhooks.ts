import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Outbound webhooks: a company's endpoints, their signing secrets (sealed; a rotated-out one
 * keeps signing until `expires_at`), and one delivery per event and endpoint with the exact body
 * every attempt sends. Publishing looks up a company's enabled webhooks on every email and contact
 * event, hence the (company_id, status) index; deletes cascade to secrets and deliveries.
 */
export const name = "0036-webhooks";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("webhooks", (table) => {
    id(table).primary();
    companyId(table);
    table.string("name", 255).notNullable();
    table.text("url").notNullable();
    /** enabled or disabled. */
    table.string("status", 20).notNullable();
    jsonDocument(table, "events").notNullable();
    table.integer("consecutive_failures").notNullable().defaultTo(0);
    timestamp(table, "circuit_opened_at");
    timestamp(table, "circuit_open_until");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.index(["company_id", "status"], "webhooks_company_status");
  });
  await knex.schema.createTable("webhook_signing_secrets", (table) => {
    id(table).primary();
    companyId(table);
    id(table, "webhook_id").notNullable().references("id").inTable("webhooks").onDelete("CASCADE");
    table.string("prefix", 20).notNullable();
    table.text("sealed_secret").notNullable();
    timestamp(table, "created_at").notNullable();
    timestamp(table, "expires_at");
    table.index(["webhook_id"], "webhook_signing_secrets_webhook");
  });
  await knex.schema.createTable("webhook_deliveries", (table) => {
    id(table).primary();
    companyId(table);
    id(table, "webhook_id").notNullable().references("id").inTable("webhooks").onDelete("CASCADE");
    table.string("event_id", 64).notNullable();
    table.string("event_type", 40).notNullable();
    table.text("body").notNullable();
    /** pending, succeeded or failed. */
    table.string("status", 20).notNullable();
    table.integer("attempts").notNullable().defaultTo(0);
    table.integer("response_code");
    table.text("error");
    table.integer("duration_ms");
    timestamp(table, "next_attempt_at");
    timestamp(table, "last_attempt_at");
    timestamp(table, "delivered_at");
    id(table, "replay_of");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.index(["webhook_id", "created_at"], "webhook_deliveries_webhook_created");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("webhook_deliveries");
  await knex.schema.dropTableIfExists("webhook_signing_secrets");
  await knex.schema.dropTableIfExists("webhooks");
}
