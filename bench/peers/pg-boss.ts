import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import PgBoss from "pg-boss";
import { dropSchema } from "./drop-schema.js";
import type { JobLedger } from "./job-ledger.js";
import type { QueueSide, SideSettings } from "./queue-side.js";

const version = (createRequire(import.meta.url)("pg-boss/package.json") as { version: string }).version;
const QUEUE = "bench-noop";

/**
 * pg-boss in a schema of its own on the same database: `send` to enqueue (one INSERT), and
 * `concurrency` loops of `fetch` + `complete`, each taking the next job as soon as its last one
 * is done. Its own `work()` sleeps `pollingIntervalSeconds` (at least 0.5 s) after every batch,
 * found jobs or not, which would hold 8 slots to about 16 jobs a second; the loops are what its
 * documentation offers for driving fetch by hand. pg-boss has no push notice of new jobs: an idle
 * loop polls every `pollMs`.
 */
export async function pgBossQueue(databaseUrl: string, { concurrency, pollMs }: SideSettings): Promise<QueueSide> {
  const schema = `bench_pgboss_${randomBytes(6).toString("hex")}`;
  const boss = new PgBoss({ connectionString: databaseUrl, schema });
  boss.on("error", () => undefined); // failures surface through the calls below
  try {
    await boss.start();
    await boss.createQueue(QUEUE);
  } catch (error) {
    await boss.stop({ graceful: false, wait: true }).catch(() => undefined);
    await dropSchema(databaseUrl, schema);
    throw error;
  }
  let loops: Array<Promise<void>> = [];
  let running = false;

  const loop = async (ledger: JobLedger): Promise<void> => {
    while (running) {
      try {
        const [job] = await boss.fetch<object>(QUEUE);
        if (!job) {
          await new Promise((resolve) => setTimeout(resolve, pollMs));
          continue;
        }
        ledger.ran(job.id);
        await boss.complete(QUEUE, job.id);
        ledger.completed();
      } catch (error) {
        ledger.failed(error);
        return;
      }
    }
  };

  return {
    name: `pg-boss ${version}`,
    async durability() {
      const { rows } = await boss.getDb().executeSql("show synchronous_commit", []);
      return `Postgres, synchronous_commit ${(rows as Array<{ synchronous_commit: string }>)[0]?.synchronous_commit}`;
    },
    async enqueue(jobs) {
      const ids: string[] = [];
      for (let i = 0; i < jobs; i += 1) {
        const id = await boss.send(QUEUE, {});
        if (id === null) throw new Error("pg-boss: send returned no job id");
        ids.push(id);
      }
      return ids;
    },
    async startWorker(ledger) {
      running = true;
      loops = Array.from({ length: concurrency }, () => loop(ledger));
    },
    async stopWorker() {
      running = false;
      await Promise.all(loops);
    },
    async verifyStore(total) {
      const { rows } = await boss.getDb().executeSql(`select state, count(*)::int as n from "${schema}".job where name = $1 group by state`, [QUEUE]);
      const byStatus = Object.fromEntries((rows as Array<{ state: string; n: number }>).map((row) => [row.state, row.n]));
      if (byStatus.completed !== total || Object.keys(byStatus).length !== 1) {
        throw new Error(`pg-boss: jobs by state ${JSON.stringify(byStatus)}, expected ${total} completed and nothing else`);
      }
    },
    async close() {
      try {
        await boss.stop({ graceful: false, wait: true });
      } finally {
        await dropSchema(databaseUrl, schema);
      }
    },
  };
}
