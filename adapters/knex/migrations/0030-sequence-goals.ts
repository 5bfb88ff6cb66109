import type { Knex } from "knex";
import { companyId, id, timestamp } from "./schema-helpers.js";

/**
 * Sequence goals (compat-reference §10) and the conversions credited to them: one per goal and
 * enrollment at most (the primary key), so an event recorded twice converts once.
 */
export const name = "0030-sequence-goals";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("sequence_goals", (table) => {
    id(table).primary();
    companyId(table);
    id(table, "sequence_id").notNullable().references("id").inTable("sequences").onDelete("CASCADE");
    table.string("name", 255).notNullable();
    table.text("description");
    /** event or attribute_change. */
    table.string("trigger_type", 20).notNullable();
    table.string("trigger_event_name", 255);
    table.string("attribute_path", 255);
    table.string("attribute_condition", 20);
    table.string("attribute_value", 1000);
    table.string("attribute_previous_value", 1000);
    table.string("event_property_name", 255);
    table.string("event_property_label", 255);
    table.integer("attribution_window_hours").notNullable();
    table.boolean("is_active").notNullable();
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.index(["company_id", "sequence_id"], "sequence_goals_sequence");
    // A recorded event looks up the active goals waiting for its name.
    table.index(["company_id", "trigger_event_name"], "sequence_goals_event");
  });
  await knex.schema.createTable("sequence_goal_conversions", (table) => {
    id(table, "goal_id").notNullable().references("id").inTable("sequence_goals").onDelete("CASCADE");
    id(table, "enrollment_id").notNullable().references("id").inTable("sequence_enrollments").onDelete("CASCADE");
    companyId(table);
    id(table, "subscriber_id").notNullable();
    /** The goal event's `eventPropertyName` value, when it has one. */
    table.text("value");
    timestamp(table, "converted_at").notNullable();
    table.primary(["goal_id", "enrollment_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("sequence_goal_conversions");
  await knex.schema.dropTableIfExists("sequence_goals");
}
