import type { Knex } from "knex";

/** Timestamps: timestamptz with milliseconds on Postgres, ISO text on SQLite (both sort correctly). */
export const timestamp = (table: Knex.CreateTableBuilder, name: string) => table.timestamp(name, { useTz: true, precision: 3 });

/** An opaque prefixed ID (decisions.md). */
export const id = (table: Knex.CreateTableBuilder, name = "id") => table.string(name, 40);

/** The owning company of a tenant row; the row goes when the company does. */
export const companyId = (table: Knex.CreateTableBuilder) => id(table, "company_id").notNullable().references("id").inTable("companies").onDelete("CASCADE");

/** JSON documents: jsonb on Postgres, JSON text on SQLite. */
export const jsonDocument = (table: Knex.CreateTableBuilder, column: string) => table.jsonb(column);
