import type { Knex } from "knex";
import { isPostgres } from "../connection.js";

/**
 * The enrollments a multi-row UPDATE of `sequence_enrollments` selects, locked in ID order first
 * on Postgres (`where id in (select id … order by id for update)`), as the engine's group commit
 * writes them: two writers that take rows in the same order never wait for each other in a cycle.
 * SQLite has one writer at a time: the query is used as it is.
 */
export const enrollmentsInIdOrder = (db: Knex | Knex.Transaction, rows: Knex.QueryBuilder): Knex.QueryBuilder =>
  isPostgres(db) ? db("sequence_enrollments").whereIn("id", rows.clone().select("id").orderBy("id").forUpdate()) : rows;
