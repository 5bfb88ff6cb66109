import type { Knex } from "knex";
import { isPostgres } from "./connection.js";

/**
 * Runs a read with Postgres's parallel workers off (for its own transaction only). For the
 * metrics funnel the planner prefers a parallel sequential scan of `email_sends` to an
 * index-only scan of the covering metrics index: on 2 cores, 82,000 sends of 250,000, the
 * parallel scan took 80-110 ms and the index-only scan 40 ms, and its workers took the cores the
 * report's other queries run on. SQLite has no parallel plans: the query runs as it is.
 */
export async function withoutParallelWorkers<T>(knex: Knex, query: Knex.QueryBuilder): Promise<T> {
  if (!isPostgres(knex)) return (await query) as T;
  return knex.transaction(async (trx) => {
    await trx.raw("set local max_parallel_workers_per_gather = 0");
    return (await query.transacting(trx)) as T;
  });
}
