import type { Knex } from "knex";
import { id, timestamp } from "./schema-helpers.js";

/** The durable job queue and its recurring schedules. */
export const name = "0002-jobs";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("jobs", (table) => {
    id(table).primary();
    id(table, "company_id").references("id").inTable("companies").onDelete("CASCADE");
    table.string("type", 100).notNullable();
    table.json("payload").notNullable();
    table.string("status", 20).notNullable();
    table.integer("priority").notNullable().defaultTo(0);
    timestamp(table, "run_at").notNullable();
    table.integer("attempts").notNullable().defaultTo(0);
    table.integer("max_attempts").notNullable();
    table.text("last_error");
    table.string("singleton_key", 200);
    table.string("lease_owner", 100);
    timestamp(table, "lease_expires_at");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    timestamp(table, "completed_at");
  });
  // Partial indexes: completed jobs pile up, but only queued and running ones are ever looked up.
  // Claims walk queued jobs in claim order straight from the first (no sort per claim).
  await knex.raw("create index jobs_claim_order on jobs (priority desc, run_at, id) where status = 'queued'");
  await knex.raw("create index jobs_running_lease on jobs (lease_expires_at, id) where status = 'running'");
  // One queued or running job per singleton key.
  await knex.raw("create unique index jobs_singleton_active on jobs (singleton_key) where singleton_key is not null and status in ('queued', 'running')");

  await knex.schema.createTable("job_schedules", (table) => {
    table.string("name", 100).primary();
    table.string("type", 100).notNullable();
    table.json("payload").notNullable();
    table.string("cron", 100);
    table.bigInteger("interval_ms");
    timestamp(table, "next_run_at").notNullable();
    timestamp(table, "updated_at").notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("job_schedules");
  await knex.schema.dropTableIfExists("jobs");
}
