import type { Knex } from "knex";
import { id, timestamp } from "./schema-helpers.js";

/**
 * Everything a company knows about its contacts: subscribers, tags, lists, notes, custom events,
 * imports, bulk operations, segments and accounts.
 */
export const name = "0005-contacts";

const company = (table: Knex.CreateTableBuilder) => id(table, "company_id").notNullable().references("id").inTable("companies").onDelete("CASCADE");
const owner = (table: Knex.CreateTableBuilder, column: string, parent: string) =>
  id(table, column).notNullable().references("id").inTable(parent).onDelete("CASCADE");
/** JSON documents: jsonb on Postgres (queried with ->>), JSON text on SQLite (json_extract). */
const document = (table: Knex.CreateTableBuilder, column: string) => table.jsonb(column);

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("companies", (table) => {
    // Accounts are turned on by the first organization-ID suggestion run (spec, Accounts).
    table.boolean("accounts_enabled").notNullable().defaultTo(false);
  });

  await knex.schema.createTable("subscribers", (table) => {
    id(table).primary();
    company(table);
    table.string("email", 320).notNullable();
    table.string("external_id", 255);
    table.string("first_name", 255);
    table.string("last_name", 255);
    table.string("phone", 32);
    table.string("sms_status", 20).notNullable().defaultTo("not_subscribed");
    table.string("status", 20).notNullable().defaultTo("active");
    table.string("email_provider", 40);
    table.string("timezone", 64);
    document(table, "custom_attributes").notNullable();
    timestamp(table, "unsubscribed_at");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.unique(["company_id", "email"]);
    table.unique(["company_id", "external_id"]);
    table.index(["company_id", "created_at", "id"]);
    table.index(["company_id", "status"]);
  });

  await knex.schema.createTable("tags", (table) => {
    id(table).primary();
    company(table);
    table.string("name", 100).notNullable();
    table.string("color", 20).notNullable().defaultTo("gray");
    table.boolean("is_system").notNullable().defaultTo(false);
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.unique(["company_id", "name"]);
  });

  await knex.schema.createTable("subscriber_tags", (table) => {
    company(table);
    owner(table, "subscriber_id", "subscribers");
    owner(table, "tag_id", "tags");
    timestamp(table, "created_at").notNullable();
    table.primary(["subscriber_id", "tag_id"]);
    table.index(["tag_id", "subscriber_id"]);
  });

  await knex.schema.createTable("lists", (table) => {
    id(table).primary();
    company(table);
    table.string("name", 255).notNullable();
    table.text("description");
    table.boolean("is_private").notNullable().defaultTo(false);
    table.boolean("allow_member_unsubscribe").notNullable().defaultTo(true);
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.unique(["company_id", "name"]);
  });

  await knex.schema.createTable("list_memberships", (table) => {
    company(table);
    owner(table, "list_id", "lists");
    owner(table, "subscriber_id", "subscribers");
    timestamp(table, "subscribed_at").notNullable();
    timestamp(table, "unsubscribed_at");
    table.primary(["list_id", "subscriber_id"]);
    table.index(["subscriber_id"]);
  });

  await knex.schema.createTable("subscriber_notes", (table) => {
    id(table).primary();
    company(table);
    owner(table, "subscriber_id", "subscribers");
    id(table, "author_member_id").notNullable();
    table.text("body").notNullable();
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.index(["subscriber_id", "created_at"]);
  });

  await knex.schema.createTable("event_definitions", (table) => {
    id(table).primary();
    company(table);
    table.string("name", 200).notNullable();
    table.bigInteger("event_count").notNullable().defaultTo(0);
    timestamp(table, "created_at").notNullable();
    timestamp(table, "last_seen_at").notNullable();
    table.unique(["company_id", "name"]);
  });

  await knex.schema.createTable("custom_events", (table) => {
    id(table).primary();
    company(table);
    owner(table, "subscriber_id", "subscribers");
    table.string("name", 200).notNullable();
    document(table, "properties").notNullable();
    timestamp(table, "occurred_at").notNullable();
    timestamp(table, "received_at").notNullable();
    table.string("event_id", 255);
    table.boolean("historical").notNullable().defaultTo(false);
    /** `api`, `account` (delivered from an account event), `import`. */
    table.string("source", 20).notNullable().defaultTo("api");
    table.index(["subscriber_id", "name", "occurred_at"]);
    table.index(["company_id", "name", "occurred_at"]);
    // Exports read events in arrival order per company.
    table.index(["company_id", "received_at", "id"]);
  });
  await knex.raw("create unique index custom_events_event_id on custom_events (company_id, subscriber_id, name, event_id) where event_id is not null");

  await knex.schema.createTable("subscriber_imports", (table) => {
    id(table).primary();
    company(table);
    table.string("status", 20).notNullable();
    table.string("file_name", 255);
    table.string("request_key", 255);
    document(table, "options").notNullable();
    table.integer("total_rows").notNullable().defaultTo(0);
    table.integer("email_count").notNullable().defaultTo(0);
    table.integer("duplicate_rows").notNullable().defaultTo(0);
    table.integer("processed_count").notNullable().defaultTo(0);
    table.integer("added_count").notNullable().defaultTo(0);
    table.integer("updated_count").notNullable().defaultTo(0);
    table.integer("skipped_count").notNullable().defaultTo(0);
    table.integer("failed_count").notNullable().defaultTo(0);
    table.integer("chunk_count").notNullable().defaultTo(0);
    table.integer("processed_chunks").notNullable().defaultTo(0);
    document(table, "skipped_reasons").notNullable();
    document(table, "failed_reasons").notNullable();
    document(table, "failed_chunk_reasons").notNullable();
    table.text("error");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    timestamp(table, "completed_at");
    table.index(["company_id", "created_at"]);
  });
  await knex.raw("create unique index subscriber_imports_request_key on subscriber_imports (company_id, request_key) where request_key is not null");

  // Rows waiting to be imported, in chunks, so a job can resume where a dead worker stopped.
  await knex.schema.createTable("subscriber_import_chunks", (table) => {
    owner(table, "import_id", "subscriber_imports");
    table.integer("chunk").notNullable();
    document(table, "rows").notNullable();
    table.boolean("done").notNullable().defaultTo(false);
    table.primary(["import_id", "chunk"]);
  });

  await knex.schema.createTable("subscriber_operations", (table) => {
    id(table).primary();
    company(table);
    table.string("kind", 40).notNullable();
    table.string("request_key", 255).notNullable();
    table.string("status", 20).notNullable();
    document(table, "params").notNullable();
    table.integer("total").notNullable().defaultTo(0);
    table.integer("processed").notNullable().defaultTo(0);
    table.integer("succeeded").notNullable().defaultTo(0);
    table.integer("failed").notNullable().defaultTo(0);
    table.text("error");
    document(table, "failures").notNullable();
    table.boolean("selection_complete").notNullable().defaultTo(false);
    table.boolean("cancel_requested").notNullable().defaultTo(false);
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    timestamp(table, "completed_at");
    timestamp(table, "expires_at");
    table.unique(["company_id", "request_key"]);
    table.index(["company_id", "created_at"]);
  });

  // The contacts an operation selected, so `total` can grow while the selection is queued.
  await knex.schema.createTable("subscriber_operation_items", (table) => {
    owner(table, "operation_id", "subscriber_operations");
    id(table, "subscriber_id").notNullable();
    table.string("state", 20).notNullable().defaultTo("pending");
    table.primary(["operation_id", "subscriber_id"]);
    table.index(["operation_id", "state"]);
  });

  await knex.schema.createTable("segments", (table) => {
    id(table).primary();
    company(table);
    table.string("name", 255).notNullable();
    table.string("format", 10).notNullable();
    table.string("filter_join_operator", 3).notNullable();
    document(table, "root").notNullable();
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.index(["company_id"]);
  });

  await knex.schema.createTable("accounts", (table) => {
    id(table).primary();
    company(table);
    table.string("external_id", 255).notNullable();
    table.string("name", 255);
    table.string("domain", 255);
    document(table, "attributes").notNullable();
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.unique(["company_id", "external_id"]);
  });

  await knex.schema.createTable("account_members", (table) => {
    company(table);
    owner(table, "account_id", "accounts");
    owner(table, "subscriber_id", "subscribers");
    table.string("role", 10).notNullable();
    timestamp(table, "created_at").notNullable();
    table.primary(["account_id", "subscriber_id"]);
    table.index(["subscriber_id"]);
  });

  await knex.schema.createTable("account_events", (table) => {
    id(table).primary();
    company(table);
    owner(table, "account_id", "accounts");
    table.string("name", 200).notNullable();
    document(table, "properties").notNullable();
    timestamp(table, "occurred_at").notNullable();
    table.string("event_id", 255);
    table.string("recipients", 10).notNullable();
    table.boolean("truncated").notNullable().defaultTo(false);
    timestamp(table, "created_at").notNullable();
    table.index(["account_id", "occurred_at"]);
  });
  await knex.raw("create unique index account_events_event_id on account_events (account_id, event_id) where event_id is not null");

  // One row per recipient chosen when the event was first recorded; retries work through them.
  await knex.schema.createTable("account_event_deliveries", (table) => {
    owner(table, "account_event_id", "account_events");
    id(table, "subscriber_id").notNullable();
    table.string("email", 320).notNullable();
    table.string("role", 10).notNullable();
    table.integer("position").notNullable();
    table.string("status", 20).notNullable();
    id(table, "custom_event_id");
    table.text("error");
    timestamp(table, "updated_at").notNullable();
    table.primary(["account_event_id", "subscriber_id"]);
  });

  await knex.schema.createTable("account_suggestion_jobs", (table) => {
    id(table).primary();
    company(table);
    table.string("property_key", 255).notNullable();
    table.string("source", 10).notNullable();
    table.string("name_key", 255);
    table.string("state", 20).notNullable();
    document(table, "result");
    table.text("error");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    timestamp(table, "completed_at");
  });
  // Only one run per key at a time (spec, Accounts).
  await knex.raw(
    "create unique index account_suggestion_jobs_active on account_suggestion_jobs (company_id, property_key) where state in ('queued', 'running')",
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    "account_suggestion_jobs",
    "account_event_deliveries",
    "account_events",
    "account_members",
    "accounts",
    "segments",
    "subscriber_operation_items",
    "subscriber_operations",
    "subscriber_import_chunks",
    "subscriber_imports",
    "custom_events",
    "event_definitions",
    "subscriber_notes",
    "list_memberships",
    "lists",
    "subscriber_tags",
    "tags",
    "subscribers",
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
  await knex.schema.alterTable("companies", (table) => table.dropColumn("accounts_enabled"));
}
