import type { Knex } from "knex";
import { id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Campaigns become a capability of their own: the `campaigns` table that migrations started
 * (imported drafts) gains the content, audience, identity, schedule and labels of a campaign
 * made here. Only columns are added, each nullable or with a default, so every imported draft
 * stays as it was and reads as a draft. The body of a campaign is `html` or `blocks`.
 */
export const name = "0027-campaigns";

const ADDED = [
  "blocks",
  "tracking_code",
  "labels",
  "target_lists",
  "sender_profile_id",
  "from_email",
  "from_name",
  "reply_profile_id",
  "reply_to",
  "reply_to_name",
  "cc_emails",
  "bcc_emails",
  "campaign_data",
  "max_recipients",
  "scheduled_at",
  "scheduled_timezone",
  "send_in_recipient_timezone",
  "spread_over_hours",
  "recurring_interval",
  "send_time_optimization",
  "send_time_window_hours",
  "sent_at",
] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("campaigns", (table) => {
    jsonDocument(table, "blocks");
    table.string("tracking_code", 255);
    /** JSON arrays; null reads as empty. */
    jsonDocument(table, "labels");
    jsonDocument(table, "target_lists");
    id(table, "sender_profile_id");
    table.string("from_email", 320);
    table.string("from_name", 255);
    id(table, "reply_profile_id");
    table.string("reply_to", 320);
    table.string("reply_to_name", 255);
    jsonDocument(table, "cc_emails");
    jsonDocument(table, "bcc_emails");
    jsonDocument(table, "campaign_data");
    table.integer("max_recipients");
    timestamp(table, "scheduled_at");
    table.string("scheduled_timezone", 64);
    table.boolean("send_in_recipient_timezone").notNullable().defaultTo(false);
    table.integer("spread_over_hours");
    table.string("recurring_interval", 20);
    table.boolean("send_time_optimization").notNullable().defaultTo(false);
    table.integer("send_time_window_hours");
    timestamp(table, "sent_at");
    table.index(["company_id", "status", "created_at"]);
  });
  // A campaign's stats read its sends.
  await knex.schema.alterTable("email_sends", (table) => {
    table.index(["company_id", "campaign_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("email_sends", (table) => {
    table.dropIndex(["company_id", "campaign_id"]);
  });
  await knex.schema.alterTable("campaigns", (table) => {
    table.dropIndex(["company_id", "status", "created_at"]);
    for (const column of ADDED) table.dropColumn(column);
  });
}
