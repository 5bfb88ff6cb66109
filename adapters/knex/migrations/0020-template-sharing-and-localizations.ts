import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Templates' public share links (one live link per template; revoking deletes it, so sharing
 * again mints another token) and their localized variants (one per template and locale).
 */
export const name = "0020-template-sharing-and-localizations";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("template_share_links", (table) => {
    id(table, "template_id").primary().references("id").inTable("templates").onDelete("CASCADE");
    companyId(table);
    /** The capability in the public URL: looked up without a company. */
    table.string("token", 64).notNullable().unique();
    timestamp(table, "created_at").notNullable();
  });

  await knex.schema.createTable("template_localizations", (table) => {
    id(table).primary();
    companyId(table);
    id(table, "template_id").notNullable().references("id").inTable("templates").onDelete("CASCADE");
    /** A BCP 47 tag as normalised by the API (`es`, `pt-BR`). */
    table.string("locale", 35).notNullable();
    table.string("subject", 998).notNullable();
    table.string("preview_text", 998);
    /** Exactly one of html and blocks holds the body, as in `templates`. */
    table.text("html");
    jsonDocument(table, "blocks");
    /** `manual` (written through the API) or `translated` (by the translation service). */
    table.string("source", 20).notNullable();
    /** The default content it was written from: a different one now means the variant is outdated. */
    table.string("source_fingerprint", 64).notNullable();
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.unique(["template_id", "locale"]);
    table.index(["company_id", "template_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("template_localizations");
  await knex.schema.dropTable("template_share_links");
}
