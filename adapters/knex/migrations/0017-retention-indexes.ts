import type { Knex } from "knex";

/**
 * What the retention sweep looks up (adapters/knex/retention-sweeper.ts): finished jobs by the
 * time they finished, and the sends that still carry a rendered body. Partial, so each holds
 * only the rows the sweep is after; the literals in the predicates are matched by the sweep's
 * own (SQLite uses a partial index only for a query that repeats its predicate).
 */
export const name = "0017-retention-indexes";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("create index jobs_completed on jobs (completed_at) where status = 'completed'");
  await knex.raw("create index jobs_dead on jobs (updated_at) where status = 'dead'");
  await knex.raw("create index email_sends_bodies on email_sends (created_at) where html is not null or text is not null");
}

export async function down(knex: Knex): Promise<void> {
  for (const index of ["email_sends_bodies", "jobs_dead", "jobs_completed"]) await knex.raw(`drop index ${index}`);
}
