import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Background runs of a sequence: audience enrollments (an audience put into the sequence batch by
 * batch, `cursor` being the greatest contact ID processed) and test runs (one contact or team
 * addresses through the sequence at compressed speed, with the log of each step).
 */
export const name = "0031-sequence-runs";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("sequence_audience_enrollments", (table) => {
    id(table).primary();
    companyId(table);
    id(table, "sequence_id").notNullable().references("id").inTable("sequences").onDelete("CASCADE");
    /** queued, running, completed, cancelled, failed. */
    table.string("status", 20).notNullable();
    /** {type: all} | {type: list, listId} | {type: segment, segmentId} | {type: tag, tag}. */
    jsonDocument(table, "audience").notNullable();
    table.string("target_node_id", 100);
    table.integer("estimated_count").notNullable();
    table.integer("processed_count").notNullable().defaultTo(0);
    table.integer("enrolled_count").notNullable().defaultTo(0);
    table.integer("skipped_count").notNullable().defaultTo(0);
    table.string("source", 20).notNullable();
    table.text("error");
    id(table, "cursor");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    timestamp(table, "started_at");
    timestamp(table, "completed_at");
    timestamp(table, "cancel_requested_at");
    table.index(["company_id", "sequence_id", "created_at"], "sequence_audience_enrollments_sequence");
  });
  await knex.schema.createTable("sequence_test_runs", (table) => {
    id(table).primary();
    companyId(table);
    id(table, "sequence_id").notNullable().references("id").inTable("sequences").onDelete("CASCADE");
    /** The test contact; a run outlives its contact (null then). */
    id(table, "subscriber_id").references("id").inTable("subscribers").onDelete("SET NULL");
    id(table, "initiated_by_user_id");
    /** queued, running, completed, failed. */
    table.string("status", 20).notNullable();
    jsonDocument(table, "recipient_emails").notNullable();
    table.integer("speed_multiplier").notNullable();
    jsonDocument(table, "custom_variables").notNullable();
    /** The steps log, one entry per node run; its length is the compare-and-set token of the next step. */
    jsonDocument(table, "steps").notNullable();
    table.integer("step_count").notNullable().defaultTo(0);
    table.string("current_node_id", 100).notNullable();
    timestamp(table, "resume_at");
    table.text("error_message");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    timestamp(table, "started_at");
    timestamp(table, "finished_at");
    table.index(["company_id", "sequence_id", "created_at"], "sequence_test_runs_sequence");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("sequence_test_runs");
  await knex.schema.dropTableIfExists("sequence_audience_enrollments");
}
