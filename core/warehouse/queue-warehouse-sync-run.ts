import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Actor } from "../shared/actor.js";
import { fail, must, ok, type Result } from "../shared/result.js";
import type { SubscriberImportRepository } from "../subscriber-imports/ports.js";
import type { RunSyncCommand } from "./commands.js";
import { syncNotFound } from "./errors.js";
import { newRun, transition, type WarehouseSync, type WarehouseSyncRun } from "./model.js";
import type { WarehouseSyncRepository } from "./ports.js";
import { runSyncJob } from "./run-warehouse-sync.js";
import { describeRuns } from "./run-views.js";
import type { RunView } from "./view.js";

export interface QueuedRun {
  readonly run: WarehouseSyncRun;
  /** False when the sync already had a queued or running run: that one is returned. */
  readonly created: boolean;
}

/**
 * Queues a run of a sync (the manual route or the scheduler; `isManual` tells which) and its job.
 * A sync has at most one queued or running run: asking again returns that one, and a full resync
 * asked meanwhile stays requested for the next run.
 */
export class QueueWarehouseSyncRun {
  constructor(
    private readonly syncs: WarehouseSyncRepository,
    private readonly imports: SubscriberImportRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** POST /warehouse-syncs/{id}/run. */
  execute = async (actor: Actor, syncId: string, command: RunSyncCommand): Promise<Result<{ run: RunView; alreadyRunning: boolean }>> => {
    const queued = await this.queue(actor.companyId, syncId, { manual: true, fullResync: command.fullResync ?? false });
    if (!queued) return fail(syncNotFound());
    const [run] = await describeRuns(this.imports, actor.companyId, [queued.run]);
    return ok({ run: run!, alreadyRunning: !queued.created });
  };

  /** Queues a run unless one is queued or running; null when the company has no such sync. */
  queue = async (companyId: string, syncId: string, options: { readonly manual: boolean; readonly fullResync: boolean }): Promise<QueuedRun | null> => {
    const queued = await this.syncs.update(companyId, syncId, async (sync, tx): Promise<QueuedRun> => {
      const now = this.clock.now();
      const active = await tx.activeRun();
      if (active) {
        if (options.fullResync && !sync.fullResyncRequested && sync.cursorColumn !== null)
          await tx.save({ ...sync, fullResyncRequested: true, updatedAt: now });
        return { run: active, created: false };
      }
      const run = newRun(this.ids.next("whr"), settled(sync), options, now);
      if (!(await tx.insertRun(run))) {
        // Another process queued one between our look and our insert (SQLite files shared by processes).
        const meanwhile = await tx.activeRun();
        if (meanwhile) return { run: meanwhile, created: false };
        throw new Error(`warehouse sync ${sync.id}: its run could not be queued`);
      }
      await tx.save(must(transition(settled(sync), { type: "runQueued", run }, now)));
      return { run, created: true };
    });
    if (queued?.created) await this.jobs.enqueue(runSyncJob(queued.run));
    return queued;
  };
}

/** A sync without a queued or running run whose status still says so (its run ended without saying) is settled as idle. */
function settled(sync: WarehouseSync): WarehouseSync {
  return sync.status === "queued" || sync.status === "running" ? { ...sync, status: "idle" } : sync;
}
