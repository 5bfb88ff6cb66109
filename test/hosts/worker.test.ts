import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import test, { type ExecutionContext } from "ava";
import * as io from "io-ts";
import type { Knex } from "knex";
import { createTestKit, defineJob } from "../../hosts/index.js";
import { createLogger } from "../../hosts/logger.js";
import { startRuntime } from "../../hosts/runtime.js";
import { JobQueue, JobStore } from "../../core/ports/job-queue.js";
import { createWorker } from "../../hosts/worker/create-worker.js";
import { JobHandlers } from "../../hosts/worker/job-handlers.js";
import { dialects, type TestDatabase } from "../helpers/databases.js";
import { startWorkerProcess, waitFor } from "../helpers/worker-process.js";

const SCRIPT = fileURLToPath(new URL("../helpers/job-worker-process.js", import.meta.url));

const startJobWorker = (t: ExecutionContext, database: TestDatabase, env: Record<string, string> = {}) => startWorkerProcess(t, SCRIPT, database, env);

const runs = async (knex: Knex, phase: string): Promise<Array<{ job_id: string; owner: string }>> =>
  knex("test_job_runs").where({ phase }).select("job_id", "owner");

test("the test kit runs due jobs with the registered handlers, retrying failures on the manual clock", async (t) => {
  const kit = await createTestKit();
  t.teardown(() => kit.close());
  const seen: string[] = [];
  let failuresLeft = 1;
  kit.handlers.register("greet", async (job) => {
    if (failuresLeft-- > 0) throw new Error("not yet");
    seen.push(String(job.payload.name));
  });
  await kit.jobs.enqueue({ type: "greet", payload: { name: "Ada" } });
  t.is(await kit.runDueJobs(), 1);
  t.deepEqual(seen, [], "the first attempt failed");
  t.is(await kit.runDueJobs(), 0, "the retry waits for its back-off");
  kit.clock.advance(1_000);
  t.is(await kit.runDueJobs(), 1);
  t.deepEqual(seen, ["Ada"]);
});

test("a defined job's handler gets its payload decoded; a malformed payload or a missing company buries the job at once, with why", async (t) => {
  const kit = await createTestKit();
  t.teardown(() => kit.close());
  const Greet = defineJob({ type: "greet", company: "required", payload: io.type({ name: io.string }), maxAttempts: 5 });
  const greeted: string[] = [];
  kit.handlers.register(Greet, async ({ companyId, payload }) => {
    greeted.push(`${companyId}:${payload.name}`);
  });
  const store = kit.lifecycle.container.get<JobStore>(JobStore);
  const { company } = await kit.createCompany();
  const good = await kit.jobs.enqueue(Greet.request({ name: "Ada" }, { companyId: company.id }));
  const malformed = await kit.jobs.enqueue({ type: "greet", companyId: company.id, payload: { name: 42 }, maxAttempts: 5 });
  const companyless = await kit.jobs.enqueue({ type: "greet", payload: { name: "Bob" }, maxAttempts: 5 });
  t.is(await kit.runDueJobs(), 3);
  t.deepEqual(greeted, [`${company.id}:Ada`], "only the well-formed job reached the handler");
  t.like(await store.find(good), { status: "completed" });
  t.like(await store.find(malformed), { status: "dead", attempts: 1, lastError: `greet job ${malformed} has a malformed payload: name must be string` });
  t.like(await store.find(companyless), { status: "dead", attempts: 1, lastError: `greet job ${companyless} names no company` });
});

test("scheduled platform sweeps remove expired rate-limit counters and idempotency records", async (t) => {
  const kit = await createTestKit({ start: "2026-11-22T10:00:00.000Z" });
  t.teardown(() => kit.close());
  const acme = await kit.createCompany();
  const knex = kit.lifecycle.container.get<Knex>(Symbol.for("lifecycle.Database"));
  const now = kit.clock.now().getTime();
  await knex("rate_limits").insert([
    { key: "rl:standard:1s:old", points: 3, expire: now - 1 },
    { key: "rl:standard:60s:live", points: 3, expire: now + 2 * 3_600_000 },
  ]);
  const record = (key: string, expiresAt: string) => ({
    company_id: acme.company.id,
    idempotency_key: key,
    method: "POST",
    path: "/x",
    request_hash: "h",
    status: "completed",
    response_status: 200,
    response_body: "{}",
    created_at: "2026-11-21T10:00:00.000Z",
    expires_at: expiresAt,
  });
  await knex("idempotency_keys").insert([record("old", "2026-11-22T09:00:00.000Z"), record("live", "2026-11-23T10:00:00.000Z")]);

  t.is(await kit.runDueJobs(), 0, "nothing is due at first");
  kit.clock.advance(3_600_000);
  t.true((await kit.runDueJobs()) >= 2);
  const ran = (await knex("jobs").where({ status: "completed" }).distinct("type")).map((row: { type: string }) => row.type);
  t.deepEqual(ran.filter((type) => type.startsWith("platform.")).sort(), ["platform.sweep_rate_limits", "platform.sweep_retention"], "both hourly sweeps ran");
  t.deepEqual(
    (await knex("rate_limits").select("key")).map((row) => row.key),
    ["rl:standard:60s:live"],
  );
  t.deepEqual(
    (await knex("idempotency_keys").select("idempotency_key")).map((row) => row.idempotency_key),
    ["live"],
  );
});

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: worker: ${title}`;

  async function prepare(t: ExecutionContext) {
    const database = await dialect.create();
    const runtime = await startRuntime({ databaseUrl: database.url, logger: createLogger("silent"), baseUrl: "http://localhost" });
    t.teardown(async () => {
      await runtime.close();
      await database.drop();
    });
    await runtime.knex.schema.createTable("test_job_runs", (table) => {
      table.string("job_id");
      table.string("owner");
      table.string("phase");
    });
    return { database, runtime, knex: runtime.knex, queue: runtime.container.get<JobQueue>(JobQueue) };
  }

  test(name("a worker killed mid-job loses nothing: another finishes its jobs once the lease expires"), async (t) => {
    const { database, knex, queue } = await prepare(t);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await queue.enqueue({ type: "test.slow", payload: { ms: 400 } }));

    const first = await startJobWorker(t, database, { LEASE_MS: "1000" });
    await waitFor("three jobs to start", async () => (await runs(knex, "start")).length >= 3);
    first.child.kill("SIGKILL");
    await once(first.child, "exit");
    const startedByFirst = new Set((await runs(knex, "start")).map((run) => run.job_id));
    const endedByFirst = new Set((await runs(knex, "end")).map((run) => run.job_id));
    const interrupted = [...startedByFirst].filter((id) => !endedByFirst.has(id));
    t.true(interrupted.length >= 1, "the kill interrupted at least one job");

    const second = await startJobWorker(t, database, { LEASE_MS: "1000" });
    await waitFor("every job to complete", async () => Number((await knex("jobs").where({ status: "completed" }).count({ n: "*" }))[0]!.n) === 10);

    const jobs = await knex("jobs").whereIn("id", ids).select("id", "status", "attempts");
    t.deepEqual(
      jobs.map((job) => job.status),
      Array(10).fill("completed"),
      "no job lost",
    );
    const ends = await runs(knex, "end");
    for (const id of ids)
      t.true(
        ends.some((run) => run.job_id === id),
        `job ${id} ran to its end`,
      );
    for (const id of interrupted) {
      const job = jobs.find((row) => row.id === id)!;
      t.true(Number(job.attempts) >= 2, `interrupted job ${id} was attempted again`);
    }
    // No job is completed twice in the queue, whoever ran it (the killed worker's last log lines may be lost).
    const completions = [...`${first.logs()}${second.logs()}`.matchAll(/"jobId":"(job_[^"]+)"[^\n]*"leaseLost":false[^\n]*"msg":"job completed"/g)].map(
      (m) => m[1],
    );
    t.is(new Set(completions).size, completions.length);
    t.true(completions.length >= 10 - startedByFirst.size && completions.length <= 10);
    t.true((await runs(knex, "start")).length > 10, "handler runs are counted: the interrupted ones ran twice");
  });

  test(name("SIGTERM lets a running job finish, then the worker exits 0"), async (t) => {
    const { database, knex, queue } = await prepare(t);
    const worker = await startJobWorker(t, database, { LEASE_MS: "5000" });
    const id = await queue.enqueue({ type: "test.slow", payload: { ms: 1_500 } });
    await waitFor("the job to start", async () => (await runs(knex, "start")).length === 1, 10_000);
    const exited = once(worker.child, "exit") as Promise<[number | null]>;
    worker.child.kill("SIGTERM");
    const [code] = await exited;
    t.is(code, 0);
    t.is((await knex("jobs").where({ id }).first()).status, "completed");
    t.is((await runs(knex, "end")).length, 1);
  });

  test(name("at most `concurrency` handlers run at once; each job's completion is recorded before stop() returns"), async (t) => {
    const { runtime, knex, queue } = await prepare(t);
    let running = 0;
    let most = 0;
    runtime.container.get(JobHandlers).register("test.busy", async () => {
      running += 1;
      most = Math.max(most, running);
      await sleep(15);
      running -= 1;
    });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await queue.enqueue({ type: "test.busy" }));
    const worker = createWorker(runtime.container, { concurrency: 3, pollMs: 20 });
    await worker.start();
    await waitFor("every job to run", async () => worker.stats.completed === 12, 10_000);
    await worker.stop();
    t.is(most, 3, "three at a time, never more");
    const statuses = await knex("jobs").whereIn("id", ids).pluck("status");
    t.deepEqual(statuses, Array(12).fill("completed"));
  });

  const push = dialect.name === "postgres" ? "LISTEN/NOTIFY" : "a job enqueued in the same process";
  test(name(`an idle worker is woken by ${push}, long before its next poll`), async (t) => {
    const { runtime, queue } = await prepare(t);
    const done: string[] = [];
    runtime.container.get(JobHandlers).register("test.ping", async (job) => {
      done.push(job.id);
    });
    const worker = createWorker(runtime.container, { concurrency: 1, pollMs: 60_000 });
    await worker.start();
    t.teardown(() => worker.stop());
    await sleep(200); // the worker is now asleep until its next poll, a minute away
    const id = await queue.enqueue({ type: "test.ping" });
    await waitFor("the job to run", async () => done.includes(id), 3_000);
    t.deepEqual(done, [id]);
  });
}
