import type { Knex } from "knex";
import { id, timestamp } from "./schema-helpers.js";

/**
 * From a company's brand to a delivered, tracked email: the company profile, sending domains,
 * sender and reply profiles, content (templates, email components), saved transactional
 * emails, email sends with their events, and suppressions.
 */
export const name = "0006-email-pipeline";

const company = (table: Knex.CreateTableBuilder) => id(table, "company_id").notNullable().references("id").inTable("companies").onDelete("CASCADE");
/** JSON documents: jsonb on Postgres, JSON text on SQLite. */
const document = (table: Knex.CreateTableBuilder, column: string) => table.jsonb(column);

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("companies", (table) => {
    table.string("primary_color", 7);
    /** The stored partial theme (null: the platform default); resolved against its preset when read. */
    document(table, "email_theme");
    document(table, "brand_colors").notNullable().defaultTo("{}");
    table.text("description");
    table.text("company_context");
    table.text("tone_voice");
    table.string("email_length_preference", 20);
    document(table, "value_props").notNullable().defaultTo("[]");
    id(table, "default_sender_profile_id");
    id(table, "default_reply_profile_id");
    table.boolean("reply_tracking_enabled").notNullable().defaultTo(false);
    table.string("reply_tracking_domain_mode", 10).notNullable().defaultTo("service");
    table.boolean("forward_replies").notNullable().defaultTo(false);
    table.integer("reply_retention_days").notNullable().defaultTo(30);
  });

  await knex.schema.createTable("sending_domains", (table) => {
    id(table).primary();
    company(table);
    table.string("domain", 253).notNullable();
    /** `pending`, `verified` (by DNS or by the operator), `failed`. */
    table.string("status", 20).notNullable();
    table.string("verified_by", 20);
    table.string("dkim_selector", 63).notNullable();
    table.text("dkim_public_key").notNullable();
    /** The private key, sealed with the server's secret key (never stored in plain text). */
    table.text("dkim_private_key_sealed").notNullable();
    /** The records last looked up and what was wrong with them. */
    document(table, "last_check");
    timestamp(table, "verified_at");
    timestamp(table, "last_checked_at");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.unique(["company_id", "domain"]);
  });

  for (const profiles of ["sender_profiles", "reply_profiles"]) {
    await knex.schema.createTable(profiles, (table) => {
      id(table).primary();
      company(table);
      table.string("name", 255).notNullable();
      table.string("email", 320).notNullable();
      if (profiles === "sender_profiles") id(table, "domain_id").references("id").inTable("sending_domains").onDelete("SET NULL");
      timestamp(table, "created_at").notNullable();
      timestamp(table, "updated_at").notNullable();
      table.index(["company_id", "email"]);
    });
  }

  await knex.schema.createTable("templates", (table) => {
    id(table).primary();
    company(table);
    table.string("name", 255).notNullable();
    table.string("subject", 998).notNullable();
    table.string("preview_text", 998);
    /** Exactly one of html and blocks holds the body. */
    table.text("html");
    document(table, "blocks");
    document(table, "labels").notNullable().defaultTo("[]");
    timestamp(table, "deleted_at");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.index(["company_id", "created_at", "id"]);
  });

  await knex.schema.createTable("email_components", (table) => {
    id(table).primary();
    company(table);
    table.string("name", 255).notNullable();
    table.text("description");
    document(table, "blocks").notNullable();
    table.string("component_type", 20).notNullable();
    table.string("default_slot", 20);
    table.integer("version").notNullable().defaultTo(1);
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.unique(["company_id", "name"]);
  });
  await knex.raw("create unique index email_components_default_slot on email_components (company_id, default_slot) where default_slot is not null");

  await knex.schema.createTable("transactional_emails", (table) => {
    id(table).primary();
    company(table);
    table.string("name", 255).notNullable();
    table.string("slug", 255).notNullable();
    /** The reusable content (a template row), kept when the transactional email is deleted. */
    id(table, "template_id").notNullable().references("id").inTable("templates");
    table.boolean("enabled").notNullable().defaultTo(true);
    timestamp(table, "deleted_at");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
  });
  // A slug is unique while its transactional email exists, and free again after deletion.
  await knex.raw("create unique index transactional_emails_slug on transactional_emails (company_id, slug) where deleted_at is null");

  await knex.schema.createTable("email_sends", (table) => {
    id(table).primary();
    company(table);
    /** The contact it went to, when there is one (deleting the contact keeps the send). */
    id(table, "subscriber_id");
    table.string("recipient_email", 320).notNullable();
    /** `campaign`, `transactional` or `sequence`. */
    table.string("email_type", 20).notNullable();
    /** For transactional sends: `transactional` (compat) or `marketing`. */
    table.string("send_kind", 20);
    id(table, "transactional_email_id");
    id(table, "template_id");
    id(table, "campaign_id");
    id(table, "automation_id");
    table.string("automation_node_id", 100);
    table.string("subject", 998).notNullable();
    table.string("sender_email", 320).notNullable();
    table.string("sender_name", 255);
    table.string("reply_to", 320);
    /** The rendered message; null once expired from retention. */
    table.text("html");
    table.text("text");
    /** `pending`, `sent`, `delivered`, `bounced`, `complained`, `failed`, `suppressed`. */
    table.string("status", 20).notNullable();
    table.string("suppression_reason", 40);
    table.text("failure_reason");
    /** RFC 5322 Message-ID, how provider events find the send. */
    table.string("message_id", 255);
    /** gmail, microsoft, yahoo, icloud, orange or other: classified when the send is made. */
    table.string("mailbox_provider", 20).notNullable();
    table.boolean("is_test").notNullable().defaultTo(false);
    table.boolean("open_tracking").notNullable().defaultTo(true);
    table.boolean("click_tracking").notNullable().defaultTo(true);
    /** The request's variables and attachments as queued (what the send job renders and attaches). */
    document(table, "payload");
    timestamp(table, "sent_at");
    timestamp(table, "delivered_at");
    /** First open and click by anyone, and by people (machine engagement excluded). */
    timestamp(table, "first_opened_at");
    timestamp(table, "first_human_opened_at");
    timestamp(table, "first_clicked_at");
    timestamp(table, "first_human_clicked_at");
    /** The latest bounce: what the bounce breakdown counts. */
    table.string("bounce_type", 20);
    table.string("bounce_sub_type", 40);
    timestamp(table, "bounced_at");
    timestamp(table, "complained_at");
    timestamp(table, "unsubscribed_at");
    timestamp(table, "replied_at");
    timestamp(table, "suppressed_at");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.index(["company_id", "created_at", "id"]);
    table.index(["company_id", "sent_at"]);
    table.index(["transactional_email_id", "sent_at"]);
    table.index(["message_id"]);
  });

  await knex.schema.createTable("email_events", (table) => {
    id(table).primary();
    company(table);
    id(table, "email_send_id").notNullable().references("id").inTable("email_sends").onDelete("CASCADE");
    /** send, delivery, bounce, complaint, open, click, unsubscribe, delivery_delay, transport_failure, reply. */
    table.string("event_type", 30).notNullable();
    timestamp(table, "event_time").notNullable();
    table.string("bounce_type", 20);
    table.string("bounce_sub_type", 40);
    table.text("url");
    table.boolean("machine").notNullable().defaultTo(false);
    table.string("machine_reason", 40);
    table.string("user_agent", 512);
    table.string("ip", 64);
    /** The provider's own ID of the event, so a redelivered webhook is stored once. */
    table.string("provider_event_id", 255);
    document(table, "details");
    timestamp(table, "created_at").notNullable();
    table.index(["email_send_id", "event_time"]);
    table.index(["company_id", "event_type", "event_time"]);
  });
  await knex.raw("create unique index email_events_provider_event on email_events (company_id, provider_event_id) where provider_event_id is not null");

  await knex.schema.createTable("suppressions", (table) => {
    id(table).primary();
    company(table);
    table.string("email", 320).notNullable();
    /** `hard_bounce`, `complaint`, `unsubscribe` or `manual`. */
    table.string("reason", 20).notNullable();
    id(table, "email_send_id");
    timestamp(table, "created_at").notNullable();
    table.unique(["company_id", "email"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "suppressions",
    "email_events",
    "email_sends",
    "transactional_emails",
    "email_components",
    "templates",
    "reply_profiles",
    "sender_profiles",
    "sending_domains",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable("companies", (table) => {
    for (const column of [
      "primary_color",
      "email_theme",
      "brand_colors",
      "description",
      "company_context",
      "tone_voice",
      "email_length_preference",
      "value_props",
      "default_sender_profile_id",
      "default_reply_profile_id",
      "reply_tracking_enabled",
      "reply_tracking_domain_mode",
      "forward_replies",
      "reply_retention_days",
    ])
      table.dropColumn(column);
  });
}
