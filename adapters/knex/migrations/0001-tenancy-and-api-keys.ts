import type { Knex } from "knex";
import { id, timestamp } from "./schema-helpers.js";

/** Companies, the people in them, and the API keys that act as those people. */
export const name = "0001-tenancy-and-api-keys";

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable("companies", (table) => {
    id(table).primary();
    table.string("name", 200).notNullable();
    timestamp(table, "created_at").notNullable();
  });

  await knex.schema.createTable("users", (table) => {
    id(table).primary();
    table.string("email", 254).notNullable().unique();
    table.string("name", 200);
    timestamp(table, "created_at").notNullable();
  });

  await knex.schema.createTable("team_members", (table) => {
    id(table).primary();
    id(table, "company_id").notNullable().references("id").inTable("companies").onDelete("CASCADE");
    id(table, "user_id").notNullable().references("id").inTable("users").onDelete("CASCADE");
    table.string("role", 20).notNullable();
    timestamp(table, "created_at").notNullable();
    table.unique(["company_id", "user_id"]);
    table.index(["user_id"]);
  });

  await knex.schema.createTable("api_keys", (table) => {
    id(table).primary();
    id(table, "company_id").notNullable().references("id").inTable("companies").onDelete("CASCADE");
    id(table, "member_id").notNullable().references("id").inTable("team_members").onDelete("CASCADE");
    table.string("name", 100).notNullable();
    table.string("prefix", 12).notNullable();
    table.string("key_hash", 64).notNullable().unique();
    table.string("preset", 40).notNullable();
    table.json("selected_scopes");
    table.string("device_name", 100);
    timestamp(table, "last_used_at");
    timestamp(table, "revoked_at");
    timestamp(table, "created_at").notNullable();
    timestamp(table, "updated_at").notNullable();
    table.index(["company_id", "revoked_at"]);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ["api_keys", "team_members", "users", "companies"]) await knex.schema.dropTableIfExists(table);
}
