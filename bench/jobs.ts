import { bullmqQueue } from "./peers/bullmq.js";
import { graphileWorkerQueue } from "./peers/graphile-worker.js";
import { JobLedger } from "./peers/job-ledger.js";
import { pgBossQueue } from "./peers/pg-boss.js";
import { productQueue } from "./peers/product-queue.js";
import type { QueueSide, SideSettings } from "./peers/queue-side.js";
import { count } from "./settings.js";
import { median } from "./statistics.js";
import { postgresTarget, sqliteTarget } from "./targets.js";

/**
 * Throughput of the durable job queue against the queue a user would pick instead, side by side
 * in one run: N no-op jobs enqueued one by one (each awaited), then drained by a worker at the
 * same concurrency. Enqueue and drain are timed apart; "whole" is N / (enqueue + drain). The
 * sides take turns, round after round (the order flips each round); every round checks that
 * each job ran exactly once and that the queue's own store holds them all as done.
 */

const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/test";
const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

interface Settings extends SideSettings {
  readonly jobs: number;
  readonly warmup: number;
  readonly rounds: number;
}

/** A non-negative integer from the environment (0 turns the warm-up off). */
const countOrNone = (name: string, fallback: number): number => (process.env[name] === "0" ? 0 : count(name, fallback));

const settings = (): Settings => {
  const jobs = count("BENCH_JOBS", 20_000);
  return {
    jobs,
    warmup: countOrNone("BENCH_JOBS_WARMUP", Math.min(1_000, jobs)),
    rounds: count("BENCH_ROUNDS", 3),
    concurrency: count("BENCH_JOBS_CONCURRENCY", 8),
    pollMs: count("BENCH_JOBS_POLL_MS", 50),
  };
};

/** The ratios the product must reach against its reference peer. */
interface Goals {
  readonly drain: number;
  readonly whole: number;
}

interface Times {
  readonly enqueueMs: number;
  readonly drainMs: number;
}

const now = (): number => performance.now();
const perSecond = (jobs: number, ms: number): number => jobs / (ms / 1000);
const rates = (jobs: number, { enqueueMs, drainMs }: Times) => ({
  enqueue: perSecond(jobs, enqueueMs),
  drain: perSecond(jobs, drainMs),
  whole: perSecond(jobs, enqueueMs + drainMs),
});
type Rates = ReturnType<typeof rates>;

/** One round of one side: enqueue (timed), drain (timed, worker start included), then the checks. */
async function round(side: QueueSide, jobs: number, total: number): Promise<Times> {
  const enqueueStarted = now();
  const ids = await side.enqueue(jobs);
  const enqueueMs = now() - enqueueStarted;
  const ledger = new JobLedger(side.name, ids);
  const drainStarted = now();
  let drainMs: number;
  try {
    await side.startWorker(ledger);
    await ledger.whenAllCompleted();
    drainMs = now() - drainStarted;
  } finally {
    await side.stopWorker();
  }
  ledger.verify();
  await side.verifyStore(total);
  return { enqueueMs, drainMs };
}

const whole = (value: number): string => Math.round(value).toLocaleString("en-US");
const describe = (name: string, r: Rates): string => `${name} enqueue ${whole(r.enqueue)}/s, drain ${whole(r.drain)}/s, whole ${whole(r.whole)}/s`;

/** Median and spread of a per-round ratio, and whether it meets its goal. */
function ratioLine(label: string, ratios: readonly number[], goal: number): string {
  const value = median(ratios);
  const spread = ratios.length > 1 ? ` (${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})` : "";
  return `${label} ${value.toFixed(2)}${spread}, goal >= ${goal.toFixed(1)}: ${value >= goal ? "met" : "missed"}`;
}

/**
 * Runs the product and its peers in alternating rounds. `sides[0]` is the product, `sides[1]`
 * the peer the goals are set against; further peers are printed alongside.
 */
async function compare(label: string, open: ReadonlyArray<() => Promise<QueueSide>>, goals: Goals): Promise<string> {
  const options = settings();
  const sides: QueueSide[] = [];
  try {
    for (const start of open) sides.push(await start());
    const durability = await Promise.all(sides.map(async (side) => `${side.name}: ${await side.durability()}`));
    process.stderr.write(
      `${label}: ${options.rounds} rounds of ${options.jobs} jobs (warm-up ${options.warmup}), concurrency ${options.concurrency}, poll ${options.pollMs} ms\n` +
        `  ${durability.join("; ")}\n`,
    );
    const totals = sides.map(() => 0);
    const runOn = async (index: number, jobs: number): Promise<Times> => {
      totals[index]! += jobs;
      return round(sides[index]!, jobs, totals[index]!);
    };
    if (options.warmup > 0) for (let i = 0; i < sides.length; i += 1) await runOn(i, options.warmup);

    const results: Rates[][] = sides.map(() => []);
    for (let r = 0; r < options.rounds; r += 1) {
      const order = sides.map((_, i) => i);
      if (r % 2 === 1) order.reverse();
      for (const i of order) {
        const figures = rates(options.jobs, await runOn(i, options.jobs));
        results[i]!.push(figures);
        process.stderr.write(`  round ${r + 1}: ${describe(sides[i]!.name, figures)}\n`);
      }
    }

    const medians = results.map((list) => ({
      enqueue: median(list.map((x) => x.enqueue)),
      drain: median(list.map((x) => x.drain)),
      whole: median(list.map((x) => x.whole)),
    }));
    const [product, peer] = [results[0]!, results[1]!];
    const drainRatios = product.map((x, r) => x.drain / peer[r]!.drain);
    const wholeRatios = product.map((x, r) => x.whole / peer[r]!.whole);
    const others = sides.slice(2).map((side, i) => `; ${describe(side.name, medians[i + 2]!)}`);
    return (
      `bench ${label}: ${describe(sides[0]!.name, medians[0]!)} vs ${describe(sides[1]!.name, medians[1]!)}` +
      ` = ${ratioLine("drain ratio", drainRatios, goals.drain)}; ${ratioLine("whole ratio", wholeRatios, goals.whole)}` +
      `${others.join("")} (median of ${options.rounds} alternating rounds of ${options.jobs} jobs, concurrency ${options.concurrency}; ${durability.join("; ")})`
    );
  } finally {
    for (const side of sides.reverse()) await side.close();
  }
}

export async function jobsSqlite(): Promise<string> {
  const options = settings();
  const redisUrl = process.env.BENCH_REDIS_URL || DEFAULT_REDIS_URL;
  return compare("jobs-sqlite", [() => productQueue(sqliteTarget(), options), () => bullmqQueue(redisUrl, options)], { drain: 1.0, whole: 1.2 });
}

export async function jobsPostgres(): Promise<string> {
  const options = settings();
  const url = process.env.BENCH_DATABASE_URL || DEFAULT_POSTGRES_URL;
  return compare(
    "jobs-postgres",
    [async () => productQueue(await postgresTarget("jobs-postgres", url), options), () => graphileWorkerQueue(url, options), () => pgBossQueue(url, options)],
    { drain: 1.0, whole: 1.5 },
  );
}
