import type { Knex } from "knex";
import { id, timestamp } from "./schema-helpers.js";

/** The SNS topic a company's SES events come from: messages of any other topic are refused. */
export const name = "0016-ses-topic-pins";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("ses_topic_pins", (table) => {
    id(table, "company_id").primary().references("id").inTable("companies").onDelete("CASCADE");
    table.text("topic_arn").notNullable();
    timestamp(table, "pinned_at").notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("ses_topic_pins");
}
