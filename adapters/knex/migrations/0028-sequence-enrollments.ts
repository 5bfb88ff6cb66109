import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Sequence enrollments: one row per contact's run through a sequence, advanced by jobs. `due_at`
 * is when the engine should next move it (a delay's end, or now); null once it is finished.
 * `entry_key` keeps a contact from running twice at once (and, for one_time sequences, ever
 * again): it is unique per sequence and cleared when an unlimited run finishes. Each step's
 * outcome is one row of `sequence_enrollment_steps`, written in the transaction that moves the
 * enrollment on (`step_count` is the compare-and-set token), so a step is recorded once.
 */
export const name = "0028-sequence-enrollments";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("sequence_enrollments", (table) => {
    id(table).primary();
    companyId(table);
    id(table, "sequence_id").notNullable().references("id").inTable("sequences").onDelete("CASCADE");
    id(table, "subscriber_id").notNullable().references("id").inTable("subscribers").onDelete("CASCADE");
    /** active, waiting, completed, failed, cancelled. */
    table.string("status", 20).notNullable();
    table.string("current_node_id", 100).notNullable();
    id(table, "entry_key");
    table.integer("step_count").notNullable().defaultTo(0);
    timestamp(table, "due_at");
    timestamp(table, "wait_until");
    /** What started it (the trigger event's name and properties), for `{{event.x}}`. */
    jsonDocument(table, "context").notNullable();
    table.text("failed_reason");
    table.string("source", 20).notNullable();
    timestamp(table, "started_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    timestamp(table, "finished_at");
    table.unique(["sequence_id", "entry_key"], { indexName: "sequence_enrollments_entry" });
    table.index(["company_id", "sequence_id", "started_at"], "sequence_enrollments_sequence");
    table.index(["company_id", "subscriber_id"], "sequence_enrollments_subscriber");
    table.index(["due_at"], "sequence_enrollments_due");
  });
  await knex.schema.createTable("sequence_enrollment_steps", (table) => {
    id(table, "enrollment_id").notNullable().references("id").inTable("sequence_enrollments").onDelete("CASCADE");
    table.integer("step_number").notNullable();
    companyId(table);
    table.string("node_id", 100).notNullable();
    table.string("node_type", 40).notNullable();
    table.string("outcome", 40).notNullable();
    jsonDocument(table, "detail");
    id(table, "email_send_id");
    timestamp(table, "at").notNullable();
    table.primary(["enrollment_id", "step_number"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("sequence_enrollment_steps");
  await knex.schema.dropTableIfExists("sequence_enrollments");
}
