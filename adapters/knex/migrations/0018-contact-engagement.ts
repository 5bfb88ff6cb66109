import type { Knex } from "knex";

/**
 * A contact's sends, for its email stats and activity (adapters/knex/repositories/
 * contact-engagement-queries.ts) and the engagement leaves of segments: without it, each read
 * scans the company's sends.
 */
export const name = "0018-contact-engagement";

export async function up(knex: Knex): Promise<void> {
  await knex.raw("create index email_sends_contact on email_sends (company_id, subscriber_id, sent_at)");
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw("drop index email_sends_contact");
}
