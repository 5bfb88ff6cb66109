import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Migrations from another email provider: the runs (their source sealed, never in plain text),
 * the ledger of drafts each run created, and the draft campaigns they create. No campaigns
 * capability exists yet: `campaigns` starts here with what an imported draft holds, and the
 * campaigns capability extends it.
 */
export const name = "0015-migrations";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("migration_runs", (table) => {
    id(table).primary();
    companyId(table);
    table.string("provider", 40).notNullable();
    table.string("status", 20).notNullable();
    /** The credentials (or the CSV) as SecretBox sealed them, bound to the run's ID. */
    table.text("source_sealed").notNullable();
    jsonDocument(table, "discovery").notNullable();
    jsonDocument(table, "approved_plan").notNullable();
    jsonDocument(table, "progress").notNullable();
    jsonDocument(table, "report").notNullable();
    jsonDocument(table, "errors").notNullable();
    /** Every save moves it up by one; saves are conditional on it. */
    table.integer("version").notNullable().defaultTo(0);
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    timestamp(table, "started_at");
    timestamp(table, "completed_at");
    table.index(["company_id", "created_at"]);
  });

  // Which source item became which draft, per run: written before the draft, so a batch that
  // runs again creates nothing twice.
  await knex.schema.createTable("migration_run_drafts", (table) => {
    id(table, "run_id").notNullable().references("id").inTable("migration_runs").onDelete("CASCADE");
    companyId(table);
    table.string("resource_id", 255).notNullable();
    table.string("source_ref", 255).notNullable();
    id(table, "entity_id").notNullable();
    timestamp(table, "created_at").notNullable();
    table.primary(["run_id", "resource_id", "source_ref"]);
  });

  await knex.schema.createTable("campaigns", (table) => {
    id(table).primary();
    companyId(table);
    table.string("name", 255).notNullable();
    table.string("subject", 998);
    table.string("preview_text", 998);
    table.text("html");
    table.string("status", 20).notNullable().defaultTo("draft");
    /** Where an imported campaign came from (`mailchimp`) and its ID there; null for campaigns made here. */
    table.string("source", 40);
    table.string("external_id", 255);
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.index(["company_id", "created_at", "id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["campaigns", "migration_run_drafts", "migration_runs"]) await knex.schema.dropTableIfExists(table);
}
