import type { Clock } from "../ports/clock.js";
import type { WarehouseSyncRepository } from "./ports.js";
import type { QueueWarehouseSyncRun } from "./queue-warehouse-sync-run.js";

/** The recurring job that queues the runs of syncs that are due. */
export const QUEUE_DUE_WAREHOUSE_SYNCS_JOB = "warehouse_syncs.queue_due";
/** How often the scheduler looks for due syncs. */
export const SCHEDULER_INTERVAL_MS = 60_000;
const PAGE = 100;

/**
 * Queues a scheduled run of every enabled sync whose nextRunAt has come (a sync with a run
 * under way has no nextRunAt: the end of that run sets the next one from the frequency).
 */
export class QueueDueWarehouseSyncs {
  constructor(
    private readonly syncs: WarehouseSyncRepository,
    private readonly runs: QueueWarehouseSyncRun,
    private readonly clock: Clock,
  ) {}

  /** Resolves to how many runs were queued. */
  execute = async (): Promise<number> => {
    let queued = 0;
    const tried = new Set<string>();
    for (;;) {
      const due = (await this.syncs.findDue(this.clock.now(), PAGE)).filter((sync) => !tried.has(sync.id));
      if (due.length === 0) return queued;
      for (const sync of due) {
        tried.add(sync.id);
        const run = await this.runs.queue(sync.companyId, sync.id, { manual: false, fullResync: false });
        if (run?.created) queued += 1;
      }
    }
  };
}
