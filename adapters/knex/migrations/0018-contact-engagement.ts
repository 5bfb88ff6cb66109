import type { Knex } from "knex";

/**
 * A contact's email engagement. `email_sends_contact` finds a contact's sends, for its email
 * stats and activity (adapters/knex/repositories/contact-engagement-queries.ts). One partial
 * index per activity serves the email conditions of segments (adapters/knex/knex-segment-
 * evaluator.ts): only the sends that had the activity, by company and time, covering what the
 * condition reads, so "opened 2 in the last 90 days" is an index-only range scan instead of a
 * pass over every send (segment-engagement benchmark: SQLite 397 to 103 ms, Postgres 294 to
 * 80 ms). Each activity adds one entry to one of them. The predicates repeat the compiled
 * condition's own `... is not null`, which SQLite needs to use a partial index.
 */
export const name = "0018-contact-engagement";

/** The send column that says when each activity happened, and the index that serves it. */
export const ACTIVITY_INDEXES = {
  email_sends_sent_by: "sent_at",
  email_sends_delivered_by: "delivered_at",
  email_sends_opened_by: "first_human_opened_at",
  email_sends_clicked_by: "first_human_clicked_at",
  email_sends_complained_by: "complained_at",
  email_sends_bounced_by: "bounced_at",
} as const;

export async function up(knex: Knex): Promise<void> {
  await knex.raw("create index email_sends_contact on email_sends (company_id, subscriber_id, sent_at)");
  for (const [index, column] of Object.entries(ACTIVITY_INDEXES)) {
    const bounce = column === "bounced_at" ? ", bounce_type" : "";
    await knex.raw(`create index ${index} on email_sends (company_id, ${column}, is_test, subscriber_id, campaign_id${bounce}) where ${column} is not null`);
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const index of [...Object.keys(ACTIVITY_INDEXES), "email_sends_contact"]) await knex.raw(`drop index ${index}`);
}
