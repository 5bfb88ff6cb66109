import type { Knex } from "knex";
import { companyId, id, timestamp } from "./schema-helpers.js";

/**
 * What periodic triggers remember. `sequence_segment_watches` says which segment a
 * `segment_entered` sequence's remembered members belong to, and whether the first evaluation
 * (which records the members already there, enrolling none) is done; `sequence_segment_members`
 * holds the contacts in the segment at the last evaluation, so the next one finds who entered and
 * who left. `sequences_trigger_status` serves the sweeps that look for live sequences of a
 * trigger across companies.
 */
export const name = "0029-sequence-trigger-state";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("sequence_segment_watches", (table) => {
    id(table, "sequence_id").primary().references("id").inTable("sequences").onDelete("CASCADE");
    companyId(table);
    id(table, "segment_id").notNullable();
    /** Null until every member present at the first evaluation is recorded. */
    timestamp(table, "seeded_at");
  });
  await knex.schema.createTable("sequence_segment_members", (table) => {
    id(table, "sequence_id").notNullable().references("id").inTable("sequences").onDelete("CASCADE");
    id(table, "subscriber_id").notNullable().references("id").inTable("subscribers").onDelete("CASCADE");
    companyId(table);
    timestamp(table, "entered_at").notNullable();
    table.primary(["sequence_id", "subscriber_id"]);
  });
  await knex.schema.alterTable("sequences", (table) => {
    table.index(["trigger", "status"], "sequences_trigger_status");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("sequences", (table) => {
    table.dropIndex(["trigger", "status"], "sequences_trigger_status");
  });
  await knex.schema.dropTableIfExists("sequence_segment_members");
  await knex.schema.dropTableIfExists("sequence_segment_watches");
}
