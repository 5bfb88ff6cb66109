import type { Knex } from "knex";
import { id, timestamp } from "./schema-helpers.js";

/**
 * Recurring campaigns: each occurrence of a weekly or monthly campaign is a campaign of its own,
 * made (scheduled) when the previous occurrence's send finished. `recurrence_anchor_at` is the
 * series' first scheduledAt (later occurrences fall on its weekday or day of month, at its
 * wall-clock time); `previous_occurrence_id` names the occurrence that made this one, unique so
 * that a finish handled twice makes one next occurrence.
 */
export const name = "0040-recurring-campaigns";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("campaigns", (table) => {
    timestamp(table, "recurrence_anchor_at");
    id(table, "previous_occurrence_id");
    table.unique(["previous_occurrence_id"], { indexName: "campaigns_previous_occurrence" });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("campaigns", (table) => {
    table.dropUnique(["previous_occurrence_id"], "campaigns_previous_occurrence");
  });
  await knex.schema.alterTable("campaigns", (table) => {
    table.dropColumn("previous_occurrence_id");
    table.dropColumn("recurrence_anchor_at");
  });
}
