import type { Knex } from "knex";
import { RATE_LIMIT_TABLE } from "./flexible-rate-limiter.js";

/** Deletes counters whose window ended (Postgres store); the job runs on a schedule. */
export async function sweepExpiredRateLimits(knex: Knex, now: Date): Promise<number> {
  return knex(RATE_LIMIT_TABLE).where("expire", "<", now.getTime()).delete();
}
