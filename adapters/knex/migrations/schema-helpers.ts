import type { Knex } from "knex";

/** Timestamps: timestamptz with milliseconds on Postgres, ISO text on SQLite (both sort correctly). */
export const timestamp = (table: Knex.CreateTableBuilder, name: string) => table.timestamp(name, { useTz: true, precision: 3 });

/** An opaque prefixed ID (decisions.md). */
export const id = (table: Knex.CreateTableBuilder, name = "id") => table.string(name, 40);
