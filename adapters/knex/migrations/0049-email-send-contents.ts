import type { Knex } from "knex";
import { id, timestamp } from "./schema-helpers.js";

/**
 * A send's rendered HTML and text in a table of their own. SQLite writes a whole row again on
 * every UPDATE, so a send's outcome (a status and a timestamp) rewrote its ~20 KB of HTML in the
 * write-ahead log each time; the send's row is now small and its content written once.
 */
export const name = "0049-email-send-contents";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("email_send_contents", (table) => {
    id(table, "email_send_id").primary().references("id").inTable("email_sends").onDelete("CASCADE");
    /** The send's: retention expires the oldest contents first. */
    timestamp(table, "created_at").notNullable();
    /** The rendered message; the row is deleted when retention expires it. */
    table.text("html");
    table.text("text");
    table.index(["created_at"]);
  });
  await knex.raw(
    "insert into email_send_contents (email_send_id, created_at, html, text) select id, created_at, html, text from email_sends where html is not null or text is not null",
  );
  await knex.raw("drop index email_sends_bodies");
  await knex.raw("alter table email_sends drop column html");
  await knex.raw("alter table email_sends drop column text");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("email_sends", (table) => {
    table.text("html");
    table.text("text");
  });
  await knex.raw(
    "update email_sends set html = (select c.html from email_send_contents c where c.email_send_id = email_sends.id), text = (select c.text from email_send_contents c where c.email_send_id = email_sends.id)",
  );
  await knex.raw("create index email_sends_bodies on email_sends (created_at) where html is not null or text is not null");
  await knex.schema.dropTable("email_send_contents");
}
