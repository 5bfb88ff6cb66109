import type { Knex } from "knex";
import { jsonDocument } from "./schema-helpers.js";

/** A campaign's computed lists (per-recipient picks from its campaignData); null: none. */
export const name = "0048-campaign-computed-lists";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("campaigns", (table) => {
    jsonDocument(table, "computed_lists").nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("campaigns", (table) => {
    table.dropColumn("computed_lists");
  });
}
