import { isLeft } from "fp-ts/lib/Either.js";
import type { CompanyRule, JobDefinition, JobWork } from "../../core/jobs/job-definition.js";
import type { Job, RecurringSchedule } from "../../core/ports/job-queue.js";

/** Runs one job. Must be idempotent: after a crash the same job may run again. */
export type JobHandler = (job: Job) => Promise<void>;

/** Runs one job of a defined type, given its decoded payload and company (and the job, for its attempts). */
export type DefinedJobHandler<P, C extends CompanyRule> = (work: JobWork<P, C>, job: Job) => Promise<void>;

/** Job types, their handlers and recurring schedules, registered by each capability's module (hosts/capabilities/) when the registry is first resolved. */
export class JobHandlers {
  private readonly handlers = new Map<string, JobHandler>();
  private readonly recurring: RecurringSchedule[] = [];

  schedule(schedule: RecurringSchedule): this {
    this.recurring.push(schedule);
    return this;
  }

  get schedules(): readonly RecurringSchedule[] {
    return this.recurring;
  }

  /** A handler given the raw job (the payload is the handler's to read). */
  register(type: string, handler: JobHandler): this {
    if (this.handlers.has(type)) throw new Error(`a handler for job type ${type} is already registered`);
    this.handlers.set(type, handler);
    return this;
  }

  /**
   * A handler of a defined job type: the payload is decoded before it runs, and a job that
   * cannot be decoded (or names no company when it needs one) fails as an UnrunnableJob.
   */
  handle<P, C extends CompanyRule>(definition: JobDefinition<P, C>, handler: DefinedJobHandler<P, C>): this {
    return this.register(definition.type, async (job) => {
      const work = definition.decode(job);
      if (isLeft(work)) throw work.left;
      await handler(work.right, job);
    });
  }

  get(type: string): JobHandler | undefined {
    return this.handlers.get(type);
  }

  get types(): string[] {
    return [...this.handlers.keys()];
  }
}
