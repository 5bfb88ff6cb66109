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

  /**
   * Registers the handler of a job type. Given a definition (core/jobs/job-definition.ts), the
   * payload is decoded before the handler runs, and a job that cannot be decoded (or names no
   * company when it needs one) fails as an UnrunnableJob. Given a type name, the handler reads
   * the raw job itself (payload-less schedules, the test kit).
   */
  register<P, C extends CompanyRule>(definition: JobDefinition<P, C>, handler: DefinedJobHandler<P, C>): this;
  register(type: string, handler: JobHandler): this;
  register<P, C extends CompanyRule>(typeOrDefinition: string | JobDefinition<P, C>, handler: JobHandler | DefinedJobHandler<P, C>): this {
    const type = typeof typeOrDefinition === "string" ? typeOrDefinition : typeOrDefinition.type;
    if (this.handlers.has(type)) throw new Error(`a handler for job type ${type} is already registered`);
    if (typeof typeOrDefinition === "string") {
      this.handlers.set(type, handler as JobHandler);
    } else {
      const run = handler as DefinedJobHandler<P, C>;
      this.handlers.set(type, async (job) => {
        const work = typeOrDefinition.decode(job);
        if (isLeft(work)) throw work.left;
        await run(work.right, job);
      });
    }
    return this;
  }

  get(type: string): JobHandler | undefined {
    return this.handlers.get(type);
  }

  get types(): string[] {
    return [...this.handlers.keys()];
  }
}
