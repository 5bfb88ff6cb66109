import type { Knex } from "knex";
import { id, timestamp } from "./schema-helpers.js";

/**
 * Sending health: a company's sending state (no row means active), and the sends a pause holds
 * back, still pending and marked `held_at`, until the resume queues them again.
 */
export const name = "0022-sending-status";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("sending_statuses", (table) => {
    id(table, "company_id").primary().references("id").inTable("companies").onDelete("CASCADE");
    /** `active`, `paused` or `suspended`. */
    table.string("status", 20).notNullable();
    table.string("pause_reason_kind", 40);
    table.text("pause_reason");
    timestamp(table, "paused_at");
    /** Rates count only sends made after these. */
    timestamp(table, "bounce_reset_at");
    timestamp(table, "complaint_reset_at");
    timestamp(table, "updated_at").notNullable();
  });
  await knex.schema.alterTable("email_sends", (table) => {
    timestamp(table, "held_at");
  });
  // The resume finds a company's held sends without walking its history (SQLite uses it when the query repeats the predicate).
  await knex.raw("create index email_sends_held on email_sends (company_id, id) where held_at is not null");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index email_sends_held");
  await knex.schema.alterTable("email_sends", (table) => {
    table.dropColumn("held_at");
  });
  await knex.schema.dropTableIfExists("sending_statuses");
}
