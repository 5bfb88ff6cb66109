import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { Queue, Worker } from "bullmq";
import { Redis } from "ioredis";
import type { JobLedger } from "./job-ledger.js";
import { NOOP_JOB, type QueueSide, type SideSettings } from "./queue-side.js";

const KEEP_COMPLETED = 1_000;
const version = (createRequire(import.meta.url)("bullmq/package.json") as { version: string }).version;

/**
 * BullMQ on Redis, set up as its documentation does for production: `Queue.add` to enqueue, one
 * `Worker` with `concurrency` slots (each fetches its next job in the same call that completes
 * the last one), keeping the last 1,000 completed and 5,000 failed jobs (the documented good
 * practice; the product keeps every row until its retention sweep). A queue of its own
 * (`bench-<random>`) is obliterated afterwards.
 */
export async function bullmqQueue(redisUrl: string, { concurrency }: SideSettings): Promise<QueueSide> {
  const name = `bench-${randomBytes(6).toString("hex")}`;
  const connection = { url: redisUrl };
  const queue = new Queue(name, { connection });
  await queue.waitUntilReady();
  let worker: Worker | undefined;

  return {
    name: `BullMQ ${version}`,
    async durability() {
      const client = new Redis(redisUrl);
      try {
        const [, appendonly] = await client.config("GET", "appendonly");
        const [, save] = await client.config("GET", "save");
        return `Redis in memory, appendonly ${appendonly}, save "${save}"`;
      } finally {
        client.disconnect();
      }
    },
    async enqueue(jobs) {
      const ids: string[] = [];
      for (let i = 0; i < jobs; i += 1) {
        const job = await queue.add(NOOP_JOB, {});
        if (job.id === undefined) throw new Error("BullMQ: add returned no job id");
        ids.push(job.id);
      }
      return ids;
    },
    async startWorker(ledger: JobLedger) {
      worker = new Worker(
        name,
        async (job) => {
          if (job.id !== undefined) ledger.ran(job.id);
        },
        {
          connection: { ...connection, maxRetriesPerRequest: null },
          concurrency,
          removeOnComplete: { count: KEEP_COMPLETED },
          removeOnFail: { count: 5_000 },
        },
      );
      // "completed" comes once Redis has moved the job to the completed set.
      worker.on("completed", () => ledger.completed());
      worker.on("failed", (_job, error) => ledger.failed(error));
      worker.on("error", (error) => ledger.failed(error));
      await worker.waitUntilReady();
    },
    async stopWorker() {
      await worker?.close();
      worker = undefined;
    },
    async verifyStore(total) {
      // Completed jobs beyond the last KEEP_COMPLETED are removed as others complete; none may be left to run.
      const counts = await queue.getJobCounts("completed", "waiting", "active", "delayed", "failed", "prioritized", "waiting-children");
      const others = Object.entries(counts).filter(([state, n]) => state !== "completed" && n > 0);
      if (counts.completed! < Math.min(total, KEEP_COMPLETED) || counts.completed! > total || others.length > 0) {
        throw new Error(`BullMQ: jobs by state ${JSON.stringify(counts)}, expected ${Math.min(total, KEEP_COMPLETED)} or more completed and nothing else`);
      }
    },
    async close() {
      try {
        await queue.obliterate({ force: true });
      } finally {
        await queue.close();
      }
    },
  };
}
