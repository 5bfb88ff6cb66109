import type { Knex } from "knex";
import { id, timestamp } from "./schema-helpers.js";

/** The first response to each Idempotency-Key, per company, kept for replay to retries. */
export const name = "0003-idempotency-keys";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("idempotency_keys", (table) => {
    id(table, "company_id").notNullable().references("id").inTable("companies").onDelete("CASCADE");
    table.string("idempotency_key", 255).notNullable();
    table.string("method", 10).notNullable();
    table.text("path").notNullable();
    table.string("request_hash", 64).notNullable();
    table.string("status", 20).notNullable();
    table.integer("response_status");
    table.json("response_body");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "expires_at").notNullable();
    table.primary(["company_id", "idempotency_key"]);
    table.index(["expires_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("idempotency_keys");
}
