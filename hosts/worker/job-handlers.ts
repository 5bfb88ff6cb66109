import type { Job, RecurringSchedule } from "../../core/ports/job-queue.js";

/** Runs one job. Must be idempotent: after a crash the same job may run again. */
export type JobHandler = (job: Job) => Promise<void>;

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

  register(type: string, handler: JobHandler): this {
    if (this.handlers.has(type)) throw new Error(`a handler for job type ${type} is already registered`);
    this.handlers.set(type, handler);
    return this;
  }

  get(type: string): JobHandler | undefined {
    return this.handlers.get(type);
  }

  get types(): string[] {
    return [...this.handlers.keys()];
  }
}
