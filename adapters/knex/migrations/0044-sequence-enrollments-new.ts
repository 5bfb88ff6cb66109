import type { Knex } from "knex";

/**
 * The engine takes the due enrollments that have taken no step yet (new runs) ahead of a backlog
 * of due follow-ups: this partial index finds them without reading the backlog. SQLite and
 * Postgres both take the same statement.
 */
export const name = "0044-sequence-enrollments-new";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("create index sequence_enrollments_new on sequence_enrollments (company_id, due_at) where step_count = 0");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index sequence_enrollments_new");
}
