import type { Knex } from "knex";
import { companyId, id, jsonDocument, timestamp } from "./schema-helpers.js";

/**
 * Data exports to customers' buckets and their runs. Also the indexes the export reads by: email
 * events and subscribers of one company in the order they are exported (custom events have
 * theirs since 0005).
 */
export const name = "0013-data-exports";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("data_exports", (table) => {
    id(table).primary();
    companyId(table);
    table.string("name", 255).notNullable();
    /** `s3` or `gcs`. */
    table.string("provider", 10).notNullable();
    table.string("bucket", 255).notNullable();
    table.string("region", 64).notNullable();
    table.string("endpoint", 2048);
    table.string("path_prefix", 512).notNullable().defaultTo("");
    table.string("access_key_id", 256).notNullable();
    /** The secret access key sealed with the SecretBox, bound to the row's ID; never in plain text. */
    table.text("secret_sealed").notNullable();
    jsonDocument(table, "datasets").notNullable();
    table.string("frequency", 30).notNullable();
    table.boolean("is_enabled").notNullable().defaultTo(true);
    /** `idle`, `queued`, `running`, `failed`. */
    table.string("status", 20).notNullable();
    timestamp(table, "start_from").notNullable();
    /** Per dataset: the event cursor written through, and the subscriber snapshots (model.ts, Watermarks). */
    jsonDocument(table, "exported_through").notNullable();
    timestamp(table, "next_run_at");
    timestamp(table, "last_run_at");
    timestamp(table, "last_success_at");
    table.text("last_error");
    timestamp(table, "last_error_at");
    table.integer("consecutive_failures").notNullable().defaultTo(0);
    table.bigInteger("total_rows_exported").notNullable().defaultTo(0);
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    /** Deleted exports stay (their runs explain the files written) but are never listed. */
    timestamp(table, "deleted_at");
    table.index(["company_id", "created_at", "id"]);
  });
  // The scheduler's look-up of due exports.
  await knex.raw("create index data_exports_due on data_exports (next_run_at) where deleted_at is null");

  await knex.schema.createTable("data_export_runs", (table) => {
    id(table).primary();
    companyId(table);
    id(table, "data_export_id").notNullable().references("id").inTable("data_exports").onDelete("CASCADE");
    /** `created`, `scheduled`, `retry`, `manual`, `resumed`. */
    table.string("trigger", 20).notNullable();
    /** `queued`, `running`, `succeeded`, `failed`, `canceled`. */
    table.string("status", 20).notNullable();
    /** Per dataset: rows, files, bytes, watermark range, note. */
    jsonDocument(table, "datasets").notNullable();
    /** The files committed, in order (the manifest lists them too). */
    jsonDocument(table, "files").notNullable();
    table.bigInteger("rows_exported").notNullable().defaultTo(0);
    table.integer("files_written").notNullable().defaultTo(0);
    table.bigInteger("bytes_written").notNullable().defaultTo(0);
    table.text("manifest_key");
    table.text("error");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "started_at");
    timestamp(table, "finished_at");
    timestamp(table, "updated_at").notNullable();
    // The runs of an export, newest first.
    table.index(["data_export_id", "created_at", "id"]);
  });
  // One run queued or running per export; also how the scheduler finds the active runs.
  await knex.raw("create unique index data_export_runs_active on data_export_runs (data_export_id) where status in ('queued', 'running')");

  await knex.schema.alterTable("email_events", (table) => {
    table.index(["company_id", "created_at", "id"], "email_events_export_order");
  });
  await knex.schema.alterTable("subscribers", (table) => {
    table.index(["company_id", "id"], "subscribers_export_order");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("subscribers", (table) => table.dropIndex([], "subscribers_export_order"));
  await knex.schema.alterTable("email_events", (table) => table.dropIndex([], "email_events_export_order"));
  await knex.schema.dropTable("data_export_runs");
  await knex.schema.dropTable("data_exports");
}
