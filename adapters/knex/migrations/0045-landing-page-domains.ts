import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Custom domains of landing pages: a company's domain serves every published page at
 * `/{slug}`, a page's own domain serves that page at `/`. A company claims a name once; many
 * companies may claim the same name, but only the one whose DNS proves it (the TXT record with
 * its claim's token) holds it verified, and only a verified name is served.
 */
export const name = "0045-landing-page-domains";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("landing_page_domains", (table) => {
    id(table).primary();
    companyId(table);
    /** Null: the company's domain, for all its pages. */
    id(table, "landing_page_id").references("id").inTable("landing_pages").onDelete("CASCADE");
    table.string("domain", 253).notNullable();
    table.string("verification_token", 100).notNullable();
    /** pending, verified or failed. */
    table.string("status", 20).notNullable();
    jsonDocument(table, "last_check");
    timestamp(table, "verified_at");
    timestamp(table, "last_checked_at");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.unique(["company_id", "domain"], { indexName: "landing_page_domains_company_domain" });
    table.unique(["landing_page_id"], { indexName: "landing_page_domains_page" });
  });
  // The same statements on SQLite and Postgres; a request's Host is looked up through the first.
  await knex.raw("create unique index landing_page_domains_verified on landing_page_domains (domain) where status = 'verified'");
  await knex.raw("create unique index landing_page_domains_company on landing_page_domains (company_id) where landing_page_id is null");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("landing_page_domains");
}
