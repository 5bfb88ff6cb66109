import type { Knex } from "knex";

/**
 * Why the send engine paused a campaign (its sender or content can no longer be sent: retrying
 * would not help), shown as `pauseReason` until a resume clears it; null for a user's pause.
 */
export const name = "0042-campaign-pause-reason";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("campaigns", (table) => {
    table.text("pause_reason");
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("campaigns", (table) => {
    table.dropColumn("pause_reason");
  });
}
