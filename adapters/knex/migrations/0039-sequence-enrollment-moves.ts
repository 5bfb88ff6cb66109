import type { Knex } from "knex";
import { timestamp } from "./schema-helpers.js";

/**
 * Where an enrollment was moved from, when and why: by `POST .../enrollments/move` (`moved_by`
 * `api`) or because a graph edit deleted the node it was at (`graph_edit`). The index serves the
 * move endpoint's daily limit, which counts a sequence's moves through the API since a time.
 */
export const name = "0039-sequence-enrollment-moves";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("sequence_enrollments", (table) => {
    table.string("moved_from_node_id", 100);
    timestamp(table, "moved_at");
    table.text("move_reason");
    table.string("moved_by", 20);
    table.index(["company_id", "sequence_id", "moved_at"], "sequence_enrollments_moved");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("sequence_enrollments", (table) => {
    table.dropIndex(["company_id", "sequence_id", "moved_at"], "sequence_enrollments_moved");
    table.dropColumn("moved_from_node_id");
    table.dropColumn("moved_at");
    table.dropColumn("move_reason");
    table.dropColumn("moved_by");
  });
}
