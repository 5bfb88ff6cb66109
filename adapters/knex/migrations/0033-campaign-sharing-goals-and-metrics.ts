import type { Knex } from "knex";
import { companyId, id, timestamp } from "./schema-helpers.js";

/**
 * What a campaign has beyond its content and schedule: its public share link (one live link per
 * campaign; the URL is a signed token naming the link's random nonce, and revoking deletes the
 * row, so the URL stops working at once and sharing again mints another); its goals (the event
 * a recipient does within a window after the campaign reached them that counts as a
 * conversion); and an index that answers a campaign's metrics from the index alone: the
 * campaign's sends, their filters and every column the funnel counts (the rows of SQLite also
 * carry the rendered HTML).
 */
export const name = "0033-campaign-sharing-goals-and-metrics";

const CAMPAIGN_METRICS_COLUMNS = [
  "company_id",
  "campaign_id",
  "is_test",
  "sent_at",
  "mailbox_provider",
  "delivered_at",
  "first_opened_at",
  "first_human_opened_at",
  "first_clicked_at",
  "first_human_clicked_at",
  "first_machine_opened_at",
  "first_machine_clicked_at",
  "bounced_at",
  "bounce_type",
  "bounce_sub_type",
  "replied_at",
  "complained_at",
  "unsubscribed_at",
  "id",
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("campaign_share_links", (table) => {
    id(table, "campaign_id").primary().references("id").inTable("campaigns").onDelete("CASCADE");
    companyId(table);
    /** Random; the public token is this nonce signed with the server's key, so a stored row alone opens nothing. */
    table.string("nonce", 64).notNullable();
    timestamp(table, "created_at").notNullable();
  });
  await knex.schema.alterTable("email_sends", (table) => {
    table.index(CAMPAIGN_METRICS_COLUMNS, "email_sends_campaign_metrics");
  });
  await knex.schema.createTable("campaign_goals", (table) => {
    id(table).primary();
    companyId(table);
    id(table, "campaign_id").notNullable().references("id").inTable("campaigns").onDelete("CASCADE");
    table.string("name", 255).notNullable();
    table.text("description");
    table.string("trigger_event_name", 200).notNullable();
    table.string("event_property_name", 200);
    table.string("event_property_label", 255);
    table.integer("attribution_window_hours").notNullable();
    table.boolean("is_active").notNullable().defaultTo(true);
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.index(["company_id", "campaign_id", "created_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("email_sends", (table) => table.dropIndex([], "email_sends_campaign_metrics"));
  await knex.schema.dropTableIfExists("campaign_goals");
  await knex.schema.dropTableIfExists("campaign_share_links");
}
