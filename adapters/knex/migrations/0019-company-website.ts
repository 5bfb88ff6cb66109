import type { Knex } from "knex";

/**
 * The website a company was created for (POST /companies `domain`), shown as the company's
 * `websiteUrl`; null for companies the operator created.
 */
export const name = "0019-company-website";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("companies", (table) => {
    table.string("website_url", 300);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("companies", (table) => {
    table.dropColumn("website_url");
  });
}
