import type { Knex } from "knex";
import { id, timestamp } from "./schema-helpers.js";

/** The per-company secret that signs generic delivery webhooks, sealed with the server's key. */
export const name = "0009-delivery-webhook-secrets";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("delivery_webhook_secrets", (table) => {
    id(table, "company_id").primary().references("id").inTable("companies").onDelete("CASCADE");
    table.text("secret_sealed").notNullable();
    timestamp(table, "created_at").notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("delivery_webhook_secrets");
}
