import { randomBytes } from "node:crypto";
import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { Logger, makeWorkerUtils, run, runMigrations, type Runner, type WorkerEvents } from "graphile-worker";
import { dropSchema } from "./drop-schema.js";
import { NOOP_JOB, type QueueSide, type SideSettings } from "./queue-side.js";

const version = (createRequire(import.meta.url)("graphile-worker/package.json") as { version: string }).version;
const silent = new Logger(() => () => undefined);

/**
 * graphile-worker in a schema of its own on the same database, set up as its documentation
 * does: `addJob` through worker utils to enqueue (one statement, which also notifies workers),
 * `run` with a task list and `concurrency` workers, LISTEN for new jobs, the same poll interval
 * as the product's worker, prepared statements on (the default). Completed jobs are deleted,
 * as graphile-worker always does.
 */
export async function graphileWorkerQueue(databaseUrl: string, { concurrency, pollMs }: SideSettings): Promise<QueueSide> {
  const schema = `bench_graphile_${randomBytes(6).toString("hex")}`;
  const shared = { connectionString: databaseUrl, schema, logger: silent };
  const utils = await runMigrations(shared)
    .then(() => makeWorkerUtils(shared))
    .catch(async (error: unknown) => {
      await dropSchema(databaseUrl, schema);
      throw error;
    });
  let runner: Runner | undefined;

  return {
    name: `graphile-worker ${version}`,
    async durability() {
      const { rows } = await utils.withPgClient((client) => client.query<{ synchronous_commit: string }>("show synchronous_commit"));
      return `Postgres, synchronous_commit ${rows[0]?.synchronous_commit}`;
    },
    async enqueue(jobs) {
      const ids: string[] = [];
      for (let i = 0; i < jobs; i += 1) ids.push((await utils.addJob(NOOP_JOB, {})).id);
      return ids;
    },
    async startWorker(ledger) {
      // job:complete comes once the outcome is written back to the database.
      const events: WorkerEvents = new EventEmitter();
      events.on("job:complete", ({ error }) => (error ? ledger.failed(error) : ledger.completed()));
      events.on("job:error", ({ error }) => ledger.failed(error));
      runner = await run({
        ...shared,
        events,
        concurrency,
        pollInterval: pollMs,
        noHandleSignals: true,
        taskList: {
          [NOOP_JOB]: async (_payload, helpers) => {
            ledger.ran(helpers.job.id);
          },
        },
      });
    },
    async stopWorker() {
      await runner?.stop();
      runner = undefined;
    },
    async verifyStore() {
      // graphile-worker deletes a job when it completes: none may be left.
      const left = await utils.withPgClient((client) => client.query<{ n: string }>(`select count(*) as n from "${schema}"._private_jobs`));
      if (Number(left.rows[0]?.n) !== 0) throw new Error(`graphile-worker: ${left.rows[0]?.n} jobs left in the queue`);
    },
    async close() {
      try {
        await utils.release();
      } finally {
        await dropSchema(databaseUrl, schema);
      }
    },
  };
}
