import test from "ava";
import type { Knex } from "knex";
import { migrationSource } from "../../adapters/knex/migrations/index.js";
import { toDbDate } from "../../adapters/knex/row-codecs.js";
import { sendHistoryRows } from "../../fixtures/email-sends.js";
import { insertCompanyRow } from "../helpers/contact-rows.js";
import { dialects, openTestKnex } from "../helpers/databases.js";

/** Migration 0049 moves the sends' rendered bodies into email_send_contents, and back on the way down. */

const config: Knex.MigratorConfig = { migrationSource, tableName: "knex_migrations" };
const BEFORE = "0048-campaign-computed-lists";
const CREATED = new Date("2026-11-01T10:00:00.000Z");

async function upTo(knex: Knex, name: string): Promise<void> {
  while (!(await knex.schema.hasTable("knex_migrations")) || !(await knex("knex_migrations").where({ name }).first())) await knex.migrate.up(config);
}

for (const dialect of dialects()) {
  test(`${dialect.name}: migration 0049 moves each send's body to email_send_contents and back, losing none`, async (t) => {
    const knex = await openTestKnex(t, dialect);
    await upTo(knex, BEFORE);
    await insertCompanyRow(knex, "co_a");
    const send = (id: string) => ({ ...sendHistoryRows("co_a", { id, sentAt: CREATED }).send, created_at: toDbDate(CREATED) });
    await knex("email_sends").insert([
      { ...send("snd_body"), html: "<p>Hello</p>", text: "Hello" },
      { ...send("snd_expired"), html: null, text: null },
    ]);

    await knex.migrate.up(config);
    t.false(await knex.schema.hasColumn("email_sends", "html"));
    const contents = await knex("email_send_contents").select("email_send_id", "html", "text", "created_at");
    t.deepEqual(
      contents.map((row) => [row.email_send_id, row.html, row.text, new Date(row.created_at).toISOString()]),
      [["snd_body", "<p>Hello</p>", "Hello", CREATED.toISOString()]],
      "a body moves with its send's creation time; an expired one leaves no row",
    );
    await knex("email_sends").where({ id: "snd_body" }).delete();
    t.deepEqual(await knex("email_send_contents").pluck("email_send_id"), [], "a deleted send takes its content with it");
    await knex("email_sends").insert(send("snd_body"));
    await knex("email_send_contents").insert({ email_send_id: "snd_body", created_at: toDbDate(CREATED), html: "<p>Again</p>", text: "Again" });

    await knex.migrate.down(config);
    t.false(await knex.schema.hasTable("email_send_contents"));
    const sends = await knex("email_sends").orderBy("id").select("id", "html", "text");
    t.deepEqual(
      sends.map((row) => [row.id, row.html, row.text]),
      [
        ["snd_body", "<p>Again</p>", "Again"],
        ["snd_expired", null, null],
      ],
    );
  });
}
