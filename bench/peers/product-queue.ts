import { pino } from "pino";
import { isPostgres } from "../../adapters/knex/connection.js";
import { JobQueue } from "../../core/ports/job-queue.js";
import { createLogger } from "../../hosts/logger.js";
import { startRuntime } from "../../hosts/runtime.js";
import { createWorker } from "../../hosts/worker/create-worker.js";
import { JobHandlers } from "../../hosts/worker/job-handlers.js";
import type { Worker } from "../../hosts/worker/worker.js";
import type { Target } from "../targets.js";
import type { JobLedger } from "./job-ledger.js";
import { NOOP_JOB, type QueueSide, type SideSettings } from "./queue-side.js";

/**
 * The product's durable queue and worker, in their default configuration: the JobQueue of the
 * container (one statement per enqueue: an INSERT, with its NOTIFY on Postgres), the real
 * Worker, and the product logger at `info` (one line per completed job) written to /dev/null.
 */
export async function productQueue(target: Target, { concurrency, pollMs }: SideSettings): Promise<QueueSide> {
  const logger = createLogger(process.env.LOG_LEVEL || "info", pino.destination("/dev/null"));
  const runtime = await startRuntime({ databaseUrl: target.url, logger, baseUrl: "http://127.0.0.1" }).catch(async (error: unknown) => {
    await target.drop();
    throw error;
  });
  const queue = runtime.container.get<JobQueue>(JobQueue);
  let ledger: JobLedger | undefined;
  runtime.container.get(JobHandlers).register(NOOP_JOB, async (job) => ledger?.ran(job.id));
  let worker: Worker | undefined;
  let watching: NodeJS.Timeout | undefined;

  return {
    name: "lifecycle",
    async durability() {
      if (isPostgres(runtime.knex)) {
        const { rows } = await runtime.knex.raw<{ rows: Array<{ synchronous_commit: string }> }>("show synchronous_commit");
        return `Postgres, synchronous_commit ${rows[0]?.synchronous_commit}`;
      }
      const journal = await runtime.knex.raw<Array<{ journal_mode: string }>>("pragma journal_mode");
      const sync = await runtime.knex.raw<Array<{ synchronous: number }>>("pragma synchronous");
      const level = ["off", "normal", "full", "extra"][sync[0]?.synchronous ?? -1] ?? "unknown";
      return `SQLite journal_mode ${journal[0]?.journal_mode}, synchronous ${level}`;
    },
    async enqueue(jobs) {
      const ids: string[] = [];
      for (let i = 0; i < jobs; i += 1) ids.push(await queue.enqueue({ type: NOOP_JOB }));
      return ids;
    },
    async startWorker(next) {
      ledger = next;
      worker = createWorker(runtime.container, { concurrency, pollMs, leaseMs: 30_000 });
      await worker.start();
      // The worker counts a job once its completion is committed; the ledger follows that count.
      const running = worker;
      watching = setInterval(() => {
        while (next.done < running.stats.completed) next.completed();
        if (running.stats.failed > 0) next.failed(new Error(`${running.stats.failed} jobs failed`));
      }, 1);
    },
    async stopWorker() {
      clearInterval(watching);
      await worker?.stop();
      worker = undefined;
    },
    async verifyStore(total) {
      const counts: Array<{ status: string; n: number | string }> = await runtime
        .knex("jobs")
        .where({ type: NOOP_JOB })
        .groupBy("status")
        .select("status")
        .count({ n: "*" });
      const byStatus = Object.fromEntries(counts.map((row) => [String(row.status), Number(row.n)]));
      if (byStatus.completed !== total || Object.keys(byStatus).length !== 1) {
        throw new Error(`lifecycle: jobs by status ${JSON.stringify(byStatus)}, expected ${total} completed and nothing else`);
      }
    },
    async close() {
      try {
        await runtime.close();
      } finally {
        await target.drop();
      }
    },
  };
}
