import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Signup forms and hosted landing pages, a company's public web surfaces. A form's ID is its
 * public capability (the actionUrl), so it is random, and the row is found by it alone. A landing
 * page's slug is unique per company (its publicUrl is `/lp/{companyId}/{slug}`); its view and
 * conversion counts are counters moved by the public pages.
 */
export const name = "0035-forms-and-landing-pages";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("forms", (table) => {
    id(table).primary();
    companyId(table);
    table.string("name", 255).notNullable();
    table.string("status", 20).notNullable();
    jsonDocument(table, "list_ids").notNullable();
    jsonDocument(table, "tag_ids").notNullable();
    table.string("duplicate_strategy", 20).notNullable();
    table.text("success_message").notNullable();
    table.text("redirect_url");
    table.text("headline");
    table.text("description");
    table.string("button_text", 255).notNullable();
    table.boolean("show_first_name").notNullable();
    table.boolean("show_last_name").notNullable();
    jsonDocument(table, "theme").notNullable();
    /** The caller's own layout; null while the settings describe it. */
    jsonDocument(table, "blocks");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.index(["company_id", "created_at"], "forms_company_created");
  });
  await knex.schema.createTable("landing_pages", (table) => {
    id(table).primary();
    companyId(table);
    table.string("name", 255).notNullable();
    table.string("slug", 100).notNullable();
    /** draft or published. */
    table.string("status", 20).notNullable();
    jsonDocument(table, "content").notNullable();
    table.integer("view_count").notNullable().defaultTo(0);
    table.integer("conversion_count").notNullable().defaultTo(0);
    timestamp(table, "published_at");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.unique(["company_id", "slug"], { indexName: "landing_pages_company_slug" });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("landing_pages");
  await knex.schema.dropTableIfExists("forms");
}
