import test, { type ExecutionContext } from "ava";
import { createKnex } from "../../adapters/knex/connection.js";
import { KnexJobQueue } from "../../adapters/knex/knex-job-queue.js";
import { KnexScheduleStore, nextRunAfter } from "../../adapters/knex/knex-schedule-store.js";
import { migrateToLatest } from "../../adapters/knex/migrate.js";
import { ManualClock } from "../../adapters/memory/manual-clock.js";
import { UlidIdGenerator } from "../../adapters/system/ulid-id-generator.js";
import { dialects, openTestKnex } from "../helpers/databases.js";

const LEASE = 30_000;

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: jobs: ${title}`;

  async function queue(t: ExecutionContext) {
    const knex = await openTestKnex(t, dialect);
    await migrateToLatest(knex);
    const clock = new ManualClock("2026-11-22T10:00:00.000Z");
    const ids = new UlidIdGenerator();
    const jobs = new KnexJobQueue(knex, ids, clock);
    return { knex, clock, jobs, ids, schedules: new KnexScheduleStore(knex, jobs) };
  }

  test(name("due jobs are claimed by priority then run time; future ones wait"), async (t) => {
    const { jobs, clock } = await queue(t);
    const low = await jobs.enqueue({ type: "a", payload: { n: 1 } });
    clock.advance(1);
    const high = await jobs.enqueue({ type: "b", priority: 5 });
    const later = await jobs.enqueue({ type: "c", runAt: new Date(clock.now().getTime() + 60_000) });

    const claimed = await jobs.claim("w1", 10, clock.now(), LEASE);
    t.deepEqual(
      claimed.map((job) => job.id),
      [high, low],
    );
    t.deepEqual(claimed[1]!.payload, { n: 1 });
    t.is(claimed[0]!.status, "running");
    t.is(claimed[0]!.attempts, 1);
    t.is(claimed[0]!.leaseOwner, "w1");
    t.deepEqual(await jobs.claim("w2", 10, clock.now(), LEASE), [], "running jobs under lease are not claimed again");

    for (const job of claimed) t.true(await jobs.complete(job.id, "w1", clock.now()));
    clock.advance(60_000);
    t.deepEqual(
      (await jobs.claim("w2", 10, clock.now(), LEASE)).map((job) => job.id),
      [later],
    );
  });

  test(name("a singleton key holds one queued or running job at a time"), async (t) => {
    const { jobs, clock } = await queue(t);
    const first = await jobs.enqueue({ type: "sync", singletonKey: "export:1" });
    t.is(await jobs.enqueue({ type: "sync", singletonKey: "export:1" }), first);
    const [claimed] = await jobs.claim("w1", 1, clock.now(), LEASE);
    t.is(await jobs.enqueue({ type: "sync", singletonKey: "export:1" }), first, "still running");
    t.true(await jobs.complete(claimed!.id, "w1", clock.now()));
    const second = await jobs.enqueue({ type: "sync", singletonKey: "export:1" });
    t.not(second, first);
    t.not(await jobs.enqueue({ type: "sync", singletonKey: "export:2" }), second);
  });

  test(name("failures retry with exponential back-off, then the job is dead with its last error"), async (t) => {
    const { jobs, clock } = await queue(t);
    const id = await jobs.enqueue({ type: "flaky", maxAttempts: 3 });
    const start = clock.now().getTime();

    let [job] = await jobs.claim("w1", 1, clock.now(), LEASE);
    t.is(await jobs.fail(job!, "w1", "boom 1", clock.now()), "retrying");
    let stored = (await jobs.find(id))!;
    t.is(stored.status, "queued");
    t.is(stored.runAt.getTime(), start + 1_000);
    t.is(stored.lastError, "boom 1");
    t.deepEqual(await jobs.claim("w1", 1, clock.now(), LEASE), [], "not before its back-off");

    clock.advance(1_000);
    [job] = await jobs.claim("w1", 1, clock.now(), LEASE);
    t.is(job!.attempts, 2);
    t.is(await jobs.fail(job!, "w1", "boom 2", clock.now()), "retrying");
    t.is((await jobs.find(id))!.runAt.getTime(), start + 1_000 + 2_000);

    clock.advance(2_000);
    [job] = await jobs.claim("w1", 1, clock.now(), LEASE);
    t.is(await jobs.fail(job!, "w1", "boom 3", clock.now()), "dead");
    stored = (await jobs.find(id))!;
    t.is(stored.status, "dead");
    t.is(stored.lastError, "boom 3");
    t.is(stored.attempts, 3);
    clock.advance(3_600_000);
    t.deepEqual(await jobs.claim("w1", 1, clock.now(), LEASE), []);
  });

  test(name("an expired lease is taken over; the old owner can no longer settle the job"), async (t) => {
    const { jobs, clock } = await queue(t);
    const id = await jobs.enqueue({ type: "slow" });
    const [job] = await jobs.claim("w1", 1, clock.now(), LEASE);
    clock.advance(LEASE / 2);
    t.true(await jobs.heartbeat(id, "w1", clock.now(), LEASE));
    clock.advance(LEASE - 1);
    t.deepEqual(await jobs.claim("w2", 1, clock.now(), LEASE), [], "the heartbeat extended the lease");

    clock.advance(2);
    const [takenOver] = await jobs.claim("w2", 1, clock.now(), LEASE);
    t.is(takenOver!.id, id);
    t.is(takenOver!.attempts, 2);
    t.false(await jobs.heartbeat(id, "w1", clock.now(), LEASE));
    t.false(await jobs.complete(id, "w1", clock.now()));
    t.is(await jobs.fail(job!, "w1", "late", clock.now()), "lost");
    t.true(await jobs.complete(id, "w2", clock.now()));
    const done = (await jobs.find(id))!;
    t.is(done.status, "completed");
    t.deepEqual(done.completedAt, clock.now());
  });

  test(name("completions arriving together from several workers settle each worker's own jobs only"), async (t) => {
    const { jobs, clock } = await queue(t);
    for (let i = 0; i < 4; i += 1) await jobs.enqueue({ type: "noop" });
    const [a, b] = await jobs.claim("w1", 2, clock.now(), LEASE);
    const [c, d] = await jobs.claim("w2", 2, clock.now(), LEASE);
    clock.advance(5);

    // Submitted in the same turn, these share one group write.
    const settled = await Promise.all([
      jobs.complete(a!.id, "w1", clock.now()),
      jobs.complete(c!.id, "w1", clock.now()),
      jobs.complete(b!.id, "w1", clock.now()),
      jobs.complete(c!.id, "w2", clock.now()),
    ]);
    t.deepEqual(settled, [true, false, true, true], "w1 cannot settle w2's job; everyone else settles their own");
    for (const job of [a!, b!, c!]) {
      const stored = await jobs.find(job.id);
      t.is(stored?.status, "completed");
      t.deepEqual(stored?.completedAt, clock.now());
      t.is(stored?.leaseOwner, null);
    }
    t.is((await jobs.find(d!.id))?.status, "running", "a job nobody completed is still under its lease");
  });

  test(name("a worker's name is stored as given, quotes and backslashes included"), async (t) => {
    const { jobs, clock } = await queue(t);
    const id = await jobs.enqueue({ type: "noop" });
    const owner = String.raw`host'; drop table jobs; --\:1:ab"c?`;
    const [claimed] = await jobs.claim(owner, 1, clock.now(), LEASE);
    t.is(claimed?.id, id);
    t.is(claimed?.leaseOwner, owner);
    t.is((await jobs.find(id))?.leaseOwner, owner);
    t.true(await jobs.complete(id, owner, clock.now()));
  });

  test(name("a lease that runs out on the last attempt makes the job dead; release gives a job back"), async (t) => {
    const { jobs, clock } = await queue(t);
    const last = await jobs.enqueue({ type: "x", maxAttempts: 1 });
    await jobs.claim("w1", 1, clock.now(), LEASE);
    clock.advance(LEASE + 1);
    t.deepEqual(await jobs.claim("w2", 1, clock.now(), LEASE), [], "not claimed for an attempt beyond its last");
    t.is(await jobs.buryExpired(clock.now()), 1);
    t.is((await jobs.find(last))!.status, "dead");

    const kept = await jobs.enqueue({ type: "y" });
    await jobs.claim("w1", 1, clock.now(), LEASE);
    await jobs.release(kept, "w1", clock.now());
    const released = (await jobs.find(kept))!;
    t.is(released.status, "queued");
    t.is(released.attempts, 0);
    t.is((await jobs.claim("w2", 1, clock.now(), LEASE))[0]?.id, kept);
  });

  test(name("concurrent claimers never receive the same job"), async (t) => {
    const { knex, ids, clock, jobs } = await queue(t);
    for (let i = 0; i < 60; i++) await jobs.enqueue({ type: "n", payload: { i } });
    // Separate pools, as separate worker processes would have.
    const others = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const own = createKnex(
          String(
            (knex.client.config.connection as { connectionString?: string; filename?: string }).connectionString ??
              `sqlite:${(knex.client.config.connection as { filename: string }).filename}`,
          ),
        );
        t.teardown(() => own.destroy());
        return new KnexJobQueue(own, ids, clock);
      }),
    );
    const claims = await Promise.all([jobs, ...others].flatMap((claimer, w) => Array.from({ length: 3 }, () => claimer.claim(`w${w}`, 7, clock.now(), LEASE))));
    const claimed = claims.flat().map((job) => job.id);
    t.is(new Set(claimed).size, claimed.length, "no job claimed twice");
    t.is(claimed.length, 60);
  });

  test(name("recurring schedules enqueue once per due time, even with several workers"), async (t) => {
    const { jobs, clock, schedules, knex } = await queue(t);
    const other = new KnexScheduleStore(knex, jobs);
    await schedules.register([{ name: "digest", everyMs: 60_000, job: { type: "digest", payload: { kind: "daily" } } }], clock.now());
    await other.register([{ name: "digest", everyMs: 60_000, job: { type: "digest", payload: { kind: "daily" } } }], clock.now());

    t.is(await schedules.enqueueDue(clock.now()), 0, "not due yet");
    clock.advance(60_000);
    const counts = await Promise.all([schedules.enqueueDue(clock.now()), other.enqueueDue(clock.now())]);
    t.is(counts[0] + counts[1], 1);
    const [job] = await jobs.claim("w", 5, clock.now(), LEASE);
    t.is(job!.type, "digest");
    t.deepEqual(job!.payload, { kind: "daily" });
    t.is(job!.singletonKey, "schedule:digest");
    t.is(await schedules.enqueueDue(clock.now()), 0, "next run is a minute later");

    // A changed definition takes effect at once.
    await schedules.register([{ name: "digest", cron: "0 6 * * *", job: { type: "digest" } }], clock.now());
    const row = await knex("job_schedules").where({ name: "digest" }).first();
    t.is(new Date(row.next_run_at).toISOString(), "2026-11-23T06:00:00.000Z");
  });
}

test("cron and interval schedules compute their next run in UTC", (t) => {
  const from = new Date("2026-11-22T10:15:00.000Z");
  t.is(nextRunAfter({ cron: "*/30 * * * *" }, from).toISOString(), "2026-11-22T10:30:00.000Z");
  t.is(nextRunAfter({ everyMs: 90_000 }, from).toISOString(), "2026-11-22T10:16:30.000Z");
  t.throws(() => nextRunAfter({}, from));
});
