// A worker process for the crash and shutdown tests: the real runtime and worker, with one
// slow handler that records each run's start and end in `test_job_runs`.
import { setTimeout as sleep } from "node:timers/promises";
import { createLogger } from "../../hosts/logger.js";
import { startRuntime } from "../../hosts/runtime.js";
import { createWorker } from "../../hosts/worker/create-worker.js";
import { JobHandlers } from "../../hosts/worker/job-handlers.js";
import { onShutdown } from "../../hosts/cli/shutdown.js";

const logger = createLogger("info");
const runtime = await startRuntime({ databaseUrl: process.env.DATABASE_URL!, logger, baseUrl: "http://localhost" });
const { knex } = runtime;
if (!(await knex.schema.hasTable("test_job_runs"))) {
  await knex.schema.createTable("test_job_runs", (table) => {
    table.string("job_id");
    table.string("owner");
    table.string("phase");
  });
}
const worker = createWorker(runtime.container, {
  concurrency: Number(process.env.CONCURRENCY ?? 2),
  leaseMs: Number(process.env.LEASE_MS ?? 1_000),
  pollMs: 100,
});
runtime.container.get(JobHandlers).register("test.slow", async (job) => {
  await knex("test_job_runs").insert({ job_id: job.id, owner: worker.owner, phase: "start" });
  await sleep(Number(job.payload.ms ?? 200));
  await knex("test_job_runs").insert({ job_id: job.id, owner: worker.owner, phase: "end" });
});
onShutdown(logger, async () => {
  await worker.stop();
  await runtime.close();
});
await worker.start();
process.stdout.write(`ready ${worker.owner}\n`);
