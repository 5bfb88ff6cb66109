import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Warehouse syncs: connections to a company's warehouse (the URL sealed, only a masked copy in
 * plain text), the syncs that read them, their runs, and the subscriber imports each run made.
 */
export const name = "0014-warehouse-syncs";

const owner = (table: Knex.CreateTableBuilder, column: string, parent: string) =>
  id(table, column).notNullable().references("id").inTable(parent).onDelete("CASCADE");

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("warehouse_connections", (table) => {
    id(table).primary();
    companyId(table);
    table.string("name", 255).notNullable();
    table.string("kind", 20).notNullable();
    // The URL with its password replaced by ****; the whole URL only sealed.
    table.text("display_url").notNullable();
    table.text("sealed_url").notNullable();
    table.boolean("has_password").notNullable();
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    // The company's connections, newest first.
    table.index(["company_id", "id"]);
  });

  await knex.schema.createTable("warehouse_syncs", (table) => {
    id(table).primary();
    companyId(table);
    owner(table, "connection_id", "warehouse_connections");
    table.string("name", 255).notNullable();
    table.string("kind", 20).notNullable();
    table.text("query").notNullable();
    jsonDocument(table, "mapping").notNullable();
    table.string("cursor_column", 255);
    table.text("cursor_value");
    jsonDocument(table, "list_ids").notNullable();
    table.string("opt_in_mode", 20).notNullable();
    table.boolean("trigger_automations").notNullable();
    table.string("frequency", 30).notNullable();
    table.boolean("is_enabled").notNullable();
    table.boolean("full_resync_requested").notNullable();
    table.integer("max_rows_per_run").notNullable();
    table.integer("statement_timeout_seconds").notNullable();
    table.string("status", 20).notNullable();
    timestamp(table, "next_run_at");
    timestamp(table, "last_run_at");
    timestamp(table, "last_success_at");
    table.text("last_error");
    timestamp(table, "last_error_at");
    table.integer("consecutive_failures").notNullable().defaultTo(0);
    id(table, "latest_run_id");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    // The company's syncs, newest first (IDs sort by time).
    table.index(["company_id", "id"]);
  });
  // The scheduler's query: enabled syncs by due time.
  await knex.raw("create index warehouse_syncs_due on warehouse_syncs (next_run_at) where is_enabled = true and next_run_at is not null");

  await knex.schema.createTable("warehouse_sync_runs", (table) => {
    id(table).primary();
    companyId(table);
    owner(table, "sync_id", "warehouse_syncs");
    table.string("status", 20).notNullable();
    table.boolean("is_manual").notNullable();
    table.boolean("is_full_resync").notNullable();
    table.integer("rows_read").notNullable().defaultTo(0);
    table.integer("rows_unchanged").notNullable().defaultTo(0);
    table.integer("rows_synced").notNullable().defaultTo(0);
    table.integer("rows_skipped").notNullable().defaultTo(0);
    table.integer("rows_failed").notNullable().defaultTo(0);
    jsonDocument(table, "error_samples").notNullable();
    table.text("cursor_from");
    table.text("cursor_to");
    table.boolean("row_limit_reached").notNullable().defaultTo(false);
    table.text("error");
    table.integer("attempts").notNullable().defaultTo(0);
    timestamp(table, "created_at").notNullable();
    timestamp(table, "started_at");
    timestamp(table, "finished_at");
    // A sync's runs, newest first.
    table.index(["sync_id", "id"]);
  });
  // At most one queued or running run per sync: a manual run and the scheduler cannot both queue one.
  await knex.raw("create unique index warehouse_sync_runs_active on warehouse_sync_runs (sync_id) where status in ('queued', 'running')");

  // The subscriber imports each run made, in order.
  await knex.schema.createTable("warehouse_sync_run_imports", (table) => {
    owner(table, "run_id", "warehouse_sync_runs");
    owner(table, "import_id", "subscriber_imports");
    companyId(table);
    table.integer("position").notNullable();
    table.primary(["run_id", "import_id"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable("warehouse_sync_run_imports");
  await knex.schema.dropTable("warehouse_sync_runs");
  await knex.schema.dropTable("warehouse_syncs");
  await knex.schema.dropTable("warehouse_connections");
}
