/**
 * The durable background queue. A job only says "advance entity X"; the entity holds the
 * user-visible state. The durable implementation arrives with the platform services; until
 * then the worker host has nothing to claim.
 */
export interface JobRequest {
  readonly type: string;
  readonly payload: Readonly<Record<string, unknown>>;
  readonly companyId?: string;
  readonly runAt?: Date;
  readonly priority?: number;
  /** At most one queued or running job per singleton key. */
  readonly singletonKey?: string;
}

export interface JobQueue {
  enqueue(job: JobRequest): Promise<string>;
}
export const JobQueue = Symbol.for("lifecycle.JobQueue");
