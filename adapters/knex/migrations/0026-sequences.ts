import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Sequences (compat-reference §10): settings in columns, the graph (nodes and edges) as one
 * document written as a whole under a compare-and-set on `graph_revision`. Labels are also
 * kept one per row, so a list can filter on them alike on both dialects.
 */
export const name = "0026-sequences";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("sequences", (table) => {
    id(table).primary();
    companyId(table);
    table.string("name", 255).notNullable();
    table.text("description");
    table.string("status", 20).notNullable();
    table.boolean("enrollment_paused").notNullable().defaultTo(false);
    table.string("trigger", 40).notNullable();
    jsonDocument(table, "trigger_config").notNullable();
    jsonDocument(table, "labels").notNullable();
    table.boolean("user_cancellable").notNullable().defaultTo(false);
    jsonDocument(table, "bcc_emails").notNullable();
    id(table, "sender_profile_id");
    table.string("from_email", 320);
    table.string("from_name", 255);
    id(table, "reply_profile_id");
    table.string("reply_to_email", 320);
    table.string("reply_to_name", 255);
    table.string("enrollment_mode", 20).notNullable();
    table.string("enrollment_field_path", 255);
    jsonDocument(table, "sending_window");
    jsonDocument(table, "stop_condition");
    jsonDocument(table, "nodes").notNullable();
    jsonDocument(table, "edges").notNullable();
    table.integer("graph_revision").notNullable();
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.index(["company_id", "created_at", "id"], "sequences_company_created");
    table.index(["company_id", "status"], "sequences_company_status");
  });
  await knex.schema.createTable("sequence_labels", (table) => {
    companyId(table);
    id(table, "sequence_id").notNullable().references("id").inTable("sequences").onDelete("CASCADE");
    table.string("label", 100).notNullable();
    table.primary(["sequence_id", "label"]);
    table.index(["company_id", "label"], "sequence_labels_company_label");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("sequence_labels");
  await knex.schema.dropTableIfExists("sequences");
}
