import type { Knex } from "knex";
import { IdGenerator } from "../core/ports/id-generator.js";
import { JobQueue } from "../core/ports/job-queue.js";
import { createLogger } from "../hosts/logger.js";
import { startRuntime, type Runtime } from "../hosts/runtime.js";
import { createWorker } from "../hosts/worker/create-worker.js";
import { JobHandlers } from "../hosts/worker/job-handlers.js";
import { postgresTarget, sqliteTarget, type Target } from "./targets.js";

/**
 * Throughput of the durable job queue: enqueue N no-op jobs one by one through the JobQueue,
 * then let the real Worker claim and complete them all. The baseline is the bare work a queue
 * cannot avoid, on the same database and knex instance: INSERT a row into a plain table, then
 * UPDATE it to "completed", one statement at a time, N times.
 */

const GOAL = 0.5;
const JOB_TYPE = "bench.noop";
const BASELINE_TABLE = "bench_baseline_rows";
const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";

const count = (name: string, fallback: number, { zero = false } = {}): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < (zero ? 0 : 1)) throw new Error(`${name} must be a ${zero ? "non-negative" : "positive"} integer (got ${raw})`);
  return value;
};

interface Settings {
  readonly jobs: number;
  readonly warmup: number;
  readonly concurrency: number;
  readonly pollMs: number;
}

const settings = (): Settings => ({
  jobs: count("BENCH_JOBS", 20_000),
  warmup: count("BENCH_JOBS_WARMUP", 1_000, { zero: true }),
  concurrency: count("BENCH_JOBS_CONCURRENCY", 8),
  pollMs: count("BENCH_JOBS_POLL_MS", 50),
});

const now = (): number => performance.now();
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A plain table as wide as the few columns a job row needs: no indexes beyond the primary key. */
async function createBaselineTable(knex: Knex): Promise<void> {
  await knex.schema.createTable(BASELINE_TABLE, (table) => {
    table.string("id", 40).primary();
    table.string("type", 100).notNullable();
    table.json("payload").notNullable();
    table.string("status", 20).notNullable();
    table.timestamp("created_at", { useTz: true, precision: 3 }).notNullable();
    table.timestamp("updated_at", { useTz: true, precision: 3 }).notNullable();
    table.timestamp("completed_at", { useTz: true, precision: 3 });
  });
}

/** INSERT then UPDATE to "completed", one row and one statement at a time; returns milliseconds. */
async function baselineLoop(knex: Knex, ids: IdGenerator, rows: number): Promise<number> {
  const started = now();
  for (let i = 0; i < rows; i += 1) {
    const id = ids.next("row");
    const at = new Date().toISOString();
    await knex(BASELINE_TABLE).insert({ id, type: JOB_TYPE, payload: JSON.stringify({}), status: "queued", created_at: at, updated_at: at });
    const done = new Date().toISOString();
    await knex(BASELINE_TABLE).where({ id }).update({ status: "completed", completed_at: done, updated_at: done });
  }
  return now() - started;
}

interface JobTimes {
  readonly enqueueMs: number;
  readonly drainMs: number;
}

/** Enqueues `jobs` no-op jobs (timed), then runs a real Worker until all are completed (timed). */
async function jobsRun(runtime: Runtime, jobs: number, { concurrency, pollMs }: Settings, label: string): Promise<JobTimes> {
  const queue = runtime.container.get<JobQueue>(JobQueue);
  const enqueueStarted = now();
  for (let i = 0; i < jobs; i += 1) await queue.enqueue({ type: JOB_TYPE });
  const enqueueMs = now() - enqueueStarted;

  const worker = createWorker(runtime.container, { concurrency, pollMs, leaseMs: 30_000 });
  const drainStarted = now();
  let drainMs: number;
  await worker.start();
  try {
    let seen = 0;
    let progressAt = now();
    while (worker.stats.completed < jobs) {
      if (worker.stats.failed > 0) throw new Error(`bench ${label}: ${worker.stats.failed} jobs failed`);
      if (worker.stats.completed !== seen) {
        seen = worker.stats.completed;
        progressAt = now();
      } else if (now() - progressAt > 30_000) {
        throw new Error(`bench ${label}: no job completed for 30 s (${seen} of ${jobs} done)`);
      }
      await pause(1);
    }
    drainMs = now() - drainStarted;
  } finally {
    await worker.stop();
  }
  return { enqueueMs, drainMs };
}

const perSecond = (items: number, ms: number): number => items / (ms / 1000);

async function jobsBenchmark(label: string, target: Target): Promise<string> {
  const options = settings();
  try {
    const runtime = await startRuntime({ databaseUrl: target.url, logger: createLogger("silent"), baseUrl: "http://127.0.0.1" });
    try {
      runtime.container.get(JobHandlers).register(JOB_TYPE, async () => undefined);
      const ids = runtime.container.get<IdGenerator>(IdGenerator);
      await createBaselineTable(runtime.knex);

      process.stderr.write(
        `${label}: ${options.jobs} jobs (warm-up ${options.warmup}), worker concurrency ${options.concurrency}, poll ${options.pollMs} ms\n`,
      );
      if (options.warmup > 0) {
        await baselineLoop(runtime.knex, ids, options.warmup);
        await jobsRun(runtime, options.warmup, options, label);
      }

      const baselineMs = await baselineLoop(runtime.knex, ids, options.jobs);
      const baseline = perSecond(options.jobs, baselineMs);
      process.stderr.write(`  baseline: ${options.jobs} INSERT+UPDATE in ${Math.round(baselineMs)} ms = ${Math.round(baseline)} rows/s\n`);

      const { enqueueMs, drainMs } = await jobsRun(runtime, options.jobs, options, label);
      const figure = perSecond(options.jobs, enqueueMs + drainMs);
      process.stderr.write(
        `  jobs: enqueue ${Math.round(enqueueMs)} ms (${Math.round(perSecond(options.jobs, enqueueMs))}/s), drain ${Math.round(drainMs)} ms (${Math.round(perSecond(options.jobs, drainMs))}/s) = ${Math.round(figure)} jobs/s\n`,
      );

      // Every job and every baseline row must have ended up completed, or the figures mean nothing.
      const expected = options.jobs + options.warmup;
      const completed = Number((await runtime.knex("jobs").where({ type: JOB_TYPE, status: "completed" }).count({ n: "*" }))[0]?.n);
      const rows = Number((await runtime.knex(BASELINE_TABLE).where({ status: "completed" }).count({ n: "*" }))[0]?.n);
      if (completed !== expected) throw new Error(`bench ${label}: ${completed} of ${expected} jobs are completed`);
      if (rows !== expected) throw new Error(`bench ${label}: ${rows} of ${expected} baseline rows are completed`);

      const ratio = figure / baseline;
      return `bench ${label}: ${Math.round(figure)} jobs/s vs baseline ${Math.round(baseline)} rows/s = ratio ${ratio.toFixed(2)} (goal >= ${GOAL})`;
    } finally {
      await runtime.close();
    }
  } finally {
    await target.drop();
  }
}

export async function jobsSqlite(): Promise<string> {
  return jobsBenchmark("jobs-sqlite", sqliteTarget());
}

export async function jobsPostgres(): Promise<string> {
  const url = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
  return jobsBenchmark("jobs-postgres", await postgresTarget("jobs-postgres", url));
}
