import type { Knex } from "knex";

/**
 * A company's due enrollments, oldest first: the engine asks for them before every batch. Without
 * an index of its own SQLite read every enrollment the company ever had (by company alone) and
 * sorted them; with it, it reads the due ones in order and stops at the batch's size. The new
 * runs' partial index takes the ID too, so it also gives the whole order and stays the one
 * chosen for them (it holds no backlog).
 */
export const name = "0047-sequence-enrollments-company-due";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("create index sequence_enrollments_company_due on sequence_enrollments (company_id, due_at, id)");
  await knex.raw("drop index sequence_enrollments_new");
  await knex.raw("create index sequence_enrollments_new on sequence_enrollments (company_id, due_at, id) where step_count = 0");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index sequence_enrollments_new");
  await knex.raw("create index sequence_enrollments_new on sequence_enrollments (company_id, due_at) where step_count = 0");
  await knex.raw("drop index sequence_enrollments_company_due");
}
