import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { DataExportRepository } from "./ports.js";
import { queueRun } from "./queue-run.js";
import { runJob } from "./run-job.js";

/** Exports queued per tick at most; the rest wait for the next tick. */
export const DISPATCH_BATCH = 500;

/**
 * The scheduled tick (every minute): queues a run of every export whose next run is due (a
 * retry when it last failed), and enqueues again the job of every run still queued or running,
 * so a run whose job was lost (a crash between saving and enqueueing) still happens. A job per
 * run is a singleton: enqueueing one that waits or runs changes nothing.
 */
export class DispatchDueExports {
  constructor(
    private readonly exports: DataExportRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (): Promise<number> => {
    const now = this.clock.now();
    let queued = 0;
    for (const due of await this.exports.findDue(now, DISPATCH_BATCH)) {
      const run = await this.exports.change(due.companyId, due.id, (state) => {
        const trigger = state.dataExport.status === "failed" ? "retry" : "scheduled";
        const next = state.dataExport.nextRunAt && state.dataExport.nextRunAt <= now ? queueRun(state, this.ids.next("dxr"), trigger, now) : null;
        return next ? { save: next.save, value: next.run } : { value: null };
      });
      if (run) {
        await this.jobs.enqueue(runJob(run));
        queued += 1;
      }
    }
    for (const active of await this.exports.findActiveRuns(DISPATCH_BATCH)) await this.jobs.enqueue(runJob(active));
    return queued;
  };
}
