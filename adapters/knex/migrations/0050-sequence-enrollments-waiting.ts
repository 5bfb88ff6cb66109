import type { Knex } from "knex";

/**
 * The runs waiting for an event, by company and contact: every event asks whether its company has
 * any, and then whether its contact does. Partial, so it holds only the few waiting runs, and a
 * company without any answers from an empty range instead of reading all of its runs.
 */
export const name = "0050-sequence-enrollments-waiting";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("create index sequence_enrollments_waiting on sequence_enrollments (company_id, subscriber_id) where status = 'waiting'");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index sequence_enrollments_waiting");
}
