import type { Knex } from "knex";
import { companyId, id, timestamp } from "./schema-helpers.js";

/** Team invitations: who was invited to which company, with what role, and what became of it. */
export const name = "0037-team-invitations";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("team_invitations", (table) => {
    id(table).primary();
    companyId(table);
    table.string("email", 254).notNullable();
    table.string("role", 20).notNullable();
    table.string("status", 20).notNullable();
    // SHA-256 of the link's token: the token itself is never stored.
    table.string("token_hash", 64).notNullable().unique();
    id(table, "invited_by_member_id").references("id").inTable("team_members").onDelete("SET NULL");
    timestamp(table, "expires_at").notNullable();
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    timestamp(table, "accepted_at");
    timestamp(table, "cancelled_at");
    id(table, "accepted_member_id").references("id").inTable("team_members").onDelete("SET NULL");
    id(table, "api_key_id");
    table.index(["company_id", "created_at"]);
    table.index(["company_id", "email", "status"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists("team_invitations");
}
