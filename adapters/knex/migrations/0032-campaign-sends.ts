import type { Knex } from "knex";
import { id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * The campaign send engine. When a send starts, its audience is frozen into
 * `campaign_recipients` (one row per contact with its place in the send, written by one
 * INSERT ... SELECT in the database, never loaded into memory); batches then walk it in order
 * from the campaign's position. The
 * campaign keeps the send's progress and pacing. A partial unique index gives each contact at
 * most one real (non-test) send per campaign, whatever retries or concurrent workers do.
 */
export const name = "0032-campaign-sends";

const ADDED = [
  "send_started_at",
  "send_recipients",
  "send_queued",
  "send_processed",
  "send_excluded",
  "send_position",
  "send_batch",
  "send_batch_size",
  "send_window_ends_at",
] as const;

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("campaigns", (table) => {
    /** When the audience was frozen (the send started). */
    timestamp(table, "send_started_at");
    /** Contacts frozen into the send, and how many of them were handed to the email pipeline so far. */
    table.integer("send_recipients");
    table.integer("send_queued").notNullable().defaultTo(0);
    /** Recipients taken by batches so far (queued or skipped). */
    table.integer("send_processed").notNullable().defaultTo(0);
    /** Contacts left out, by reason (`unsubscribed`, `bounced`, `suppressed`, `unconfirmed`, `duplicate`, `deleted`). */
    jsonDocument(table, "send_excluded");
    /** The place of the last recipient batched, and the number of the next batch. */
    table.integer("send_position").notNullable().defaultTo(0);
    table.integer("send_batch").notNullable().defaultTo(0);
    table.integer("send_batch_size");
    /** With spreadOverHours: when the last batch is due. */
    timestamp(table, "send_window_ends_at");
  });

  await knex.schema.createTable("campaign_recipients", (table) => {
    id(table, "campaign_id").notNullable().references("id").inTable("campaigns").onDelete("CASCADE");
    id(table, "subscriber_id").notNullable();
    table.string("email", 320).notNullable();
    /** The recipient's place in the send (from 1; gaps where a duplicate address was left out). */
    table.integer("position").notNullable();
    /** Sent in recipients' timezones: not before this (null: at once). */
    timestamp(table, "due_at");
    table.primary(["campaign_id", "subscriber_id"]);
    table.index(["campaign_id", "position"]);
    // Two contacts with one address get one message.
    table.unique(["campaign_id", "email"]);
  });

  // Throttled scopes (a company's campaign sends, the server's): when each may send again.
  await knex.schema.createTable("campaign_send_pacing", (table) => {
    table.string("scope", 80).primary();
    timestamp(table, "free_from").notNullable();
  });

  // Test sends (is_test) may go to a contact any number of times; a real send only once.
  // (DDL takes no bindings: the dialect's own false is written out.)
  const no = knex.client.config.client === "pg" ? "false" : "0";
  await knex.raw(
    `create unique index email_sends_campaign_contact on email_sends (campaign_id, subscriber_id) where campaign_id is not null and subscriber_id is not null and is_test = ${no}`,
  );
  // The sweep of due scheduled campaigns, across companies.
  await knex.schema.alterTable("campaigns", (table) => {
    table.index(["status", "scheduled_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("campaigns", (table) => {
    table.dropIndex(["status", "scheduled_at"]);
  });
  await knex.raw("drop index email_sends_campaign_contact");
  await knex.schema.dropTable("campaign_send_pacing");
  await knex.schema.dropTable("campaign_recipients");
  await knex.schema.alterTable("campaigns", (table) => {
    for (const column of ADDED) table.dropColumn(column);
  });
}
