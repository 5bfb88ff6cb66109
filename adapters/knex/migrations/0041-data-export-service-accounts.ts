import type { Knex } from "knex";

/**
 * GCS exports may sign in with a service account's JSON key instead of HMAC keys: how the export
 * signs in, and the key's fingerprint (shown; the key itself is sealed in `secret_sealed`, and
 * `access_key_id` holds the account's email).
 */
export const name = "0041-data-export-service-accounts";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable("data_exports", (table) => {
    /** `hmac` or `service_account`. */
    table.string("credential_type", 20).notNullable().defaultTo("hmac");
    table.string("key_fingerprint", 100);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable("data_exports", (table) => {
    table.dropColumn("key_fingerprint");
    table.dropColumn("credential_type");
  });
}
