import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Clock } from "../../core/ports/clock.js";
import { UnrunnableJob } from "../../core/jobs/job-definition.js";
import type { Job, JobStore, RecurringSchedule, ScheduleStore } from "../../core/ports/job-queue.js";
import type { Logger } from "../logger.js";
import type { JobHandlers } from "./job-handlers.js";

export interface WorkerOptions {
  /** Jobs run at once. */
  readonly concurrency: number;
  /** How long a claimed job stays this worker's without a heartbeat. */
  readonly leaseMs?: number;
  /** How often to look for due jobs when nothing wakes the worker. */
  readonly pollMs?: number;
  /** How long stop() lets running jobs finish before releasing them. */
  readonly drainMs?: number;
  readonly schedules?: readonly RecurringSchedule[];
  /**
   * Free a job's slot when its handler returns, before its outcome is written, so the next claim
   * overlaps that write. Worth it where the claim and the write run side by side (Postgres, one
   * connection each); on SQLite's single connection they queue behind each other and smaller,
   * more frequent claims only cost more.
   */
  readonly overlapOutcomes?: boolean;
}

export interface WorkerPorts {
  readonly store: JobStore;
  readonly schedules: ScheduleStore;
  readonly handlers: JobHandlers;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Starts push notifications of new jobs; returns how to stop them. */
  readonly listen?: (wake: () => void) => Promise<() => Promise<void>>;
}

export interface WorkerStats {
  claimed: number;
  completed: number;
  failed: number;
}

/**
 * Claimed jobs a worker holds at most, running or with their outcome being written, per unit of
 * concurrency (with `overlapOutcomes`). Outcomes written meanwhile share commits: with 8 slots on
 * Postgres, a cap of 2 drained 1,400 jobs/s and a cap of 4 drained 6,000/s.
 */
const HELD_JOBS_PER_SLOT = 4;

/**
 * Claims due jobs from the durable queue and runs up to `concurrency` at once, each under a
 * lease kept alive by a heartbeat; a worker killed mid-job loses nothing, since the job is
 * claimed again once its lease runs out.
 */
export class Worker {
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  readonly stats: WorkerStats = { claimed: 0, completed: 0, failed: 0 };
  /** Claimed jobs until their outcome is recorded (stop() waits for them, or gives them back). */
  private readonly active = new Map<string, Promise<void>>();
  /** Jobs whose handler is running: what `concurrency` bounds. */
  private handling = 0;
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  private stopListening: (() => Promise<void>) | undefined;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly drainMs: number;

  constructor(
    private readonly ports: WorkerPorts,
    private readonly options: WorkerOptions,
  ) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.pollMs = options.pollMs ?? 1_000;
    this.drainMs = options.drainMs ?? 20_000;
  }

  private registerSchedules(): Promise<void> {
    const { schedules, handlers, clock } = this.ports;
    return schedules.register([...handlers.schedules, ...(this.options.schedules ?? [])], clock.now());
  }

  async start(): Promise<void> {
    const { logger, listen } = this.ports;
    await this.registerSchedules();
    this.running = true;
    this.stopListening = listen ? await listen(() => this.wake()) : undefined;
    this.loop = this.run();
    logger.info({ owner: this.owner, concurrency: this.options.concurrency, handlers: this.ports.handlers.types }, "worker started");
  }

  /** Stops claiming, lets running jobs finish for a while, then gives the rest back to the queue. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    await this.loop;
    await this.stopListening?.();
    const drained = await Promise.race([
      Promise.all(this.active.values()).then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), this.drainMs).unref()),
    ]);
    if (!drained) {
      for (const jobId of this.active.keys()) await this.ports.store.release(jobId, this.owner, this.ports.clock.now());
      this.ports.logger.warn({ released: [...this.active.keys()] }, "released unfinished jobs to the queue");
    }
    this.ports.logger.info({ ...this.stats }, "worker stopped");
  }

  /** Runs every job that is due now, and waits for them (tests and embedders drive time by hand). */
  async runDue(): Promise<number> {
    await this.registerSchedules();
    let ran = 0;
    for (;;) {
      await this.housekeeping(true);
      const jobs = await this.ports.store.claim(this.owner, this.options.concurrency, this.ports.clock.now(), this.leaseMs);
      if (jobs.length === 0) return ran;
      await Promise.all(jobs.map((job) => this.execute(job)));
      ran += jobs.length;
    }
  }

  /** Set by a wake that arrives while the loop is claiming: the sleep after that claim is skipped. */
  private wakePending = false;

  /** Wakes the loop on the next turn, so slots freed together are refilled by one claim. */
  private wake(): void {
    this.wakePending = true;
    const wakeUp = this.wakeUp;
    if (wakeUp) setImmediate(wakeUp);
  }

  /** Schedules and dead leases are looked at once per poll interval, not once per claim. */
  private lastHousekeeping = 0;

  /** Returns whether it ran (and so whether dead leases are worth looking for in this claim). */
  private async housekeeping(force = false): Promise<boolean> {
    const { store, schedules, clock } = this.ports;
    if (!force && Date.now() - this.lastHousekeeping < this.pollMs) return false;
    this.lastHousekeeping = Date.now();
    await store.buryExpired(clock.now());
    await schedules.enqueueDue(clock.now());
    return true;
  }

  private async run(): Promise<void> {
    const { store, clock, logger } = this.ports;
    while (this.running) {
      let claimedAll = false;
      // A job announced from here on may be missed by this claim: its wake must not be lost.
      this.wakePending = false;
      try {
        const expired = await this.housekeeping();
        const free = Math.min(this.options.concurrency - this.handling, HELD_JOBS_PER_SLOT * this.options.concurrency - this.active.size);
        if (free > 0) {
          const jobs = await store.claim(this.owner, free, clock.now(), this.leaseMs, { expired });
          for (const job of jobs) this.track(job);
          claimedAll = jobs.length === free;
        }
      } catch (error) {
        logger.error({ err: error }, "could not claim jobs");
      }
      if (!claimedAll) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    // Woken while claiming (a job queued, a slot freed): claim again on the next turn.
    if (this.wakePending) return new Promise((resolve) => setImmediate(resolve));
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }

  private track(job: Job): void {
    this.stats.claimed += 1;
    this.handling += 1;
    let slotFreed = false;
    const freeSlot = () => {
      if (slotFreed) return;
      slotFreed = true;
      this.handling -= 1;
      this.wake();
    };
    const execution = this.execute(job, freeSlot).finally(() => {
      this.active.delete(job.id);
      freeSlot();
      this.wake(); // the outcome is written: room under the cap on outcomes in flight
    });
    this.active.set(job.id, execution);
  }

  /**
   * Runs a job and records its outcome. `handlerDone` is called as soon as the handler returns
   * or throws: its slot is then free, and the next claim overlaps the write of this outcome.
   */
  private async execute(job: Job, handlerDone: () => void = () => undefined): Promise<void> {
    const { store, handlers, clock, logger } = this.ports;
    const heartbeat = setInterval(
      () => {
        store
          .heartbeat(job.id, this.owner, clock.now(), this.leaseMs)
          .catch((error: unknown) => logger.warn({ err: error, jobId: job.id }, "heartbeat failed"));
      },
      Math.max(10, Math.floor(this.leaseMs / 3)),
    );
    const started = Date.now();
    try {
      const handler = handlers.get(job.type);
      if (!handler) throw new Error(`no handler is registered for job type ${job.type}`);
      await handler(job);
      if (this.options.overlapOutcomes) handlerDone();
      const settled = await store.complete(job.id, this.owner, clock.now());
      this.stats.completed += 1;
      logger.info({ jobId: job.id, type: job.type, attempt: job.attempts, ms: Date.now() - started, leaseLost: !settled }, "job completed");
    } catch (error) {
      handlerDone();
      this.stats.failed += 1;
      const message = error instanceof Error ? error.message : String(error);
      // A job that cannot run as stored goes dead now: retrying it would fail the same way.
      const retry = !(error instanceof UnrunnableJob);
      const outcome = await store.fail(job, this.owner, message, clock.now(), { retry }).catch((failure: unknown) => {
        logger.error({ err: failure, jobId: job.id }, "could not record job failure");
        return "lost" as const;
      });
      logger.warn({ jobId: job.id, type: job.type, attempt: job.attempts, outcome, error: message }, "job failed");
    } finally {
      clearInterval(heartbeat);
    }
  }
}
