import type { JobLedger } from "./job-ledger.js";

/** One queue in the jobs benchmarks: the product's or a peer's, set up for one run. */
export interface QueueSide {
  /** Name and version, as printed. */
  readonly name: string;
  /** When a job counts as stored, as printed (for example "Postgres, synchronous_commit on"). */
  durability(): Promise<string>;
  /** Enqueues `jobs` no-op jobs one at a time, each awaited before the next; resolves to their ids. */
  enqueue(jobs: number): Promise<string[]>;
  /**
   * Starts a worker at the benchmark's concurrency, which reports each run and each recorded
   * completion to `ledger`; resolves once it is running. Starting is part of the drain time.
   */
  startWorker(ledger: JobLedger): Promise<void>;
  /** Stops the worker started last. */
  stopWorker(): Promise<void>;
  /** Throws unless the queue's own store agrees that all `total` jobs enqueued so far are done and none is left. */
  verifyStore(total: number): Promise<void>;
  /** Removes everything the side created (schema, keys, connections). */
  close(): Promise<void>;
}

/** What every side is given. */
export interface SideSettings {
  readonly concurrency: number;
  /** How often an idle worker looks for jobs, for queues that poll (all also get pushed notice of new jobs). */
  readonly pollMs: number;
}

export const NOOP_JOB = "bench.noop";
