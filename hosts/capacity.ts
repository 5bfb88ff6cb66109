import { DEFAULT_FAIR_SHARE, type FairShare } from "../core/access/fair-share.js";

/**
 * How much work the server takes on: each company's fair share, when new API requests are shed
 * before any work is done, and how long one database statement may run.
 */
export interface Capacity extends FairShare {
  /** New API requests get 503 while the event loop's recent mean delay (ms) is above this. */
  readonly shedEventLoopDelayMs: number;
  /** ... or while more database queries than this wait for a pool connection. */
  readonly shedDbQueue: number;
  /** How long one database statement may run (0: none): Postgres `statement_timeout`, SQLite's time limit extension. */
  readonly dbStatementTimeoutMs: number;
}

export const DEFAULT_CAPACITY: Capacity = {
  ...DEFAULT_FAIR_SHARE,
  // A healthy loop is late by a millisecond or two on average; 100 ms on average means every request
  // already waits that long before it is even read, and /health (goal: 250 ms at p95) would notice.
  shedEventLoopDelayMs: 100,
  // Ten connections' worth of waiting queries each (the Postgres pool has 10).
  shedDbQueue: 100,
  // Far above any page of the API (a 1,000-contact page takes tens of milliseconds); it ends runaway statements.
  dbStatementTimeoutMs: 30_000,
};
