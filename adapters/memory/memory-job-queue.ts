import type { JobQueue, JobRequest } from "../../core/ports/job-queue.js";
import type { IdGenerator } from "../../core/ports/id-generator.js";

export interface QueuedJob extends JobRequest {
  readonly id: string;
}

/**
 * Keeps enqueued jobs in memory for tests and embedders that drain them by hand. Singleton
 * keys are honoured: a second job with a queued key returns the first job's ID.
 */
export class MemoryJobQueue implements JobQueue {
  readonly jobs: QueuedJob[] = [];

  constructor(private readonly ids: IdGenerator) {}

  async enqueue(job: JobRequest): Promise<string> {
    const existing = job.singletonKey ? this.jobs.find((queued) => queued.singletonKey === job.singletonKey) : undefined;
    if (existing) return existing.id;
    const id = this.ids.next("job");
    this.jobs.push({ ...job, id });
    return id;
  }

  /** Removes and returns every queued job. */
  drain(): QueuedJob[] {
    return this.jobs.splice(0, this.jobs.length);
  }
}
