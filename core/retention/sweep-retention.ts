import type { Clock } from "../ports/clock.js";
import type { RetentionStore } from "./ports.js";
import { retentionCutoff, type RetentionPolicy } from "./policy.js";

export const SWEEP_RETENTION_JOB = "platform.sweep_retention";

export interface RetentionSweep {
  readonly completedJobs: number;
  readonly deadJobs: number;
  readonly idempotencyKeys: number;
  readonly emailBodies: number;
  readonly deliveryEvents: number;
}

/** Applies the retention policy at the clock's time: what expired is removed (bodies blanked). */
export class SweepRetention {
  constructor(
    private readonly store: RetentionStore,
    private readonly policy: RetentionPolicy,
    private readonly clock: Clock,
  ) {}

  execute = async (): Promise<RetentionSweep> => {
    const now = this.clock.now();
    const sweep = (days: number, remove: (before: Date) => Promise<number>): Promise<number> => {
      const before = retentionCutoff(days, now);
      return before ? remove(before) : Promise.resolve(0);
    };
    return {
      completedJobs: await sweep(this.policy.completedJobsDays, (before) => this.store.deleteCompletedJobs(before)),
      deadJobs: await sweep(this.policy.deadJobsDays, (before) => this.store.deleteDeadJobs(before)),
      idempotencyKeys: await this.store.deleteExpiredIdempotencyKeys(now),
      emailBodies: await sweep(this.policy.emailBodiesDays, (before) => this.store.blankEmailBodies(before)),
      deliveryEvents: await sweep(this.policy.deliveryEventsDays, (before) => this.store.deleteDeliveryEvents(before)),
    };
  };
}
