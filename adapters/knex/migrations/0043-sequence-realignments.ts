import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Sending-window realignments applied in the background (`POST .../enrollments/realign-sending-window`
 * with dryRun false): what they cover, how far they got (`cursor`, the greatest enrollment ID
 * done) and what they did (`result`, the counts), so a worker that dies resumes without redoing.
 */
export const name = "0043-sequence-realignments";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("sequence_realignments", (table) => {
    id(table).primary();
    companyId(table);
    id(table, "sequence_id").notNullable().references("id").inTable("sequences").onDelete("CASCADE");
    /** queued, running, completed, failed. */
    table.string("status", 20).notNullable();
    jsonDocument(table, "node_ids");
    jsonDocument(table, "subscriber_ids");
    id(table, "cursor");
    jsonDocument(table, "result").notNullable();
    table.text("error");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    timestamp(table, "finished_at");
    table.index(["company_id", "sequence_id"], "sequence_realignments_sequence");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("sequence_realignments");
}
