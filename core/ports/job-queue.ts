import { token } from "../shared/token.js";

/**
 * The durable background queue. A job only says "advance entity X"; the entity holds the
 * user-visible state, so a handler must be idempotent (a job may run again after a crash).
 */
export interface JobRequest {
  readonly type: string;
  readonly payload?: Readonly<Record<string, unknown>>;
  readonly companyId?: string;
  /** Not before this time (default: now). */
  readonly runAt?: Date;
  /** Higher runs first among due jobs (default 0). */
  readonly priority?: number;
  /** Attempts before the job is dead (default 10). */
  readonly maxAttempts?: number;
  /** At most one queued or running job per key: enqueueing again returns the existing job. */
  readonly singletonKey?: string;
}

export interface JobQueue {
  /** The job's ID (the existing job's, when its singleton key is taken). */
  enqueue(job: JobRequest): Promise<string>;
}
export const JobQueue = token<JobQueue>("lifecycle.JobQueue");

export type JobStatus = "queued" | "running" | "completed" | "dead";

export interface Job {
  readonly id: string;
  readonly type: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly companyId: string | null;
  readonly status: JobStatus;
  readonly priority: number;
  readonly runAt: Date;
  /** Runs started so far, this one included. */
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly lastError: string | null;
  readonly singletonKey: string | null;
  readonly leaseOwner: string | null;
  readonly leaseExpiresAt: Date | null;
  readonly createdAt: Date;
  readonly completedAt: Date | null;
}

/** What a worker does with the queue: claim due jobs under a lease, and settle them. */
export interface JobStore {
  /** Marks dead the jobs whose lease ran out on their last attempt; returns how many. */
  buryExpired(now: Date): Promise<number>;
  /**
   * Leases up to `limit` due jobs (queued and due, or running with an expired lease) to `owner`.
   * `expired: false` looks at queued jobs only (a busy worker looks for dead leases less often).
   */
  claim(owner: string, limit: number, now: Date, leaseMs: number, options?: { readonly expired?: boolean }): Promise<Job[]>;
  /** Extends the lease; false when the job is no longer this owner's. */
  heartbeat(jobId: string, owner: string, now: Date, leaseMs: number): Promise<boolean>;
  /** False when the lease was lost (another worker took the job over). */
  complete(jobId: string, owner: string, now: Date): Promise<boolean>;
  /**
   * Schedules a retry with back-off, or marks the job dead after its last attempt (or at once
   * with `retry: false`, for a job no retry can help).
   */
  fail(job: Job, owner: string, error: string, now: Date, options?: { readonly retry?: boolean }): Promise<"retrying" | "dead" | "lost">;
  /** Gives the job back untouched (shutdown before it could finish). */
  release(jobId: string, owner: string, now: Date): Promise<void>;
  find(jobId: string): Promise<Job | null>;
}
export const JobStore = token<JobStore>("lifecycle.JobStore");

/** A job enqueued again and again: on a cron expression or at a fixed interval. */
export interface RecurringSchedule {
  readonly name: string;
  readonly job: JobRequest;
  readonly cron?: string;
  readonly everyMs?: number;
}

export interface ScheduleStore {
  /** Records the schedules (keeping the next run of an unchanged one). */
  register(schedules: readonly RecurringSchedule[], now: Date): Promise<void>;
  /** Enqueues every schedule that is due, once across all workers; returns how many. */
  enqueueDue(now: Date): Promise<number>;
}
export const ScheduleStore = token<ScheduleStore>("lifecycle.ScheduleStore");
