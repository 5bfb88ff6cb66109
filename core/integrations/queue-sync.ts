import type { Clock } from "../ports/clock.js";
import type { JobQueue } from "../ports/job-queue.js";
import { runSyncJob } from "./jobs.js";
import type { Integration, SyncKind } from "./model.js";
import type { IntegrationRepository, ProviderApis } from "./ports.js";

export type QueuedSync = { readonly queued: true; readonly jobId: string } | { readonly queued: false; readonly reason: "running" | "unsupported" };

/**
 * Queues a sync of the integration when none is queued or running: syncStatus moves to `queued`
 * (the row decides, so two requests cannot both start one), the state starts from the first page.
 */
export class QueueSync {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly apis: ProviderApis,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  execute = async (integration: Integration, kind: SyncKind): Promise<QueuedSync> => {
    if (!this.apis.supportsSync(integration.provider, kind)) return { queued: false, reason: "unsupported" };
    const now = this.clock.now();
    const moved = await this.integrations.moveSyncStatus(
      integration.companyId,
      integration.id,
      [null, "succeeded", "failed"],
      "queued",
      { syncState: { kind, cursor: null, pagesRead: 0, recorded: 0, skipped: 0, startedAt: now.toISOString(), finishedAt: null }, lastSyncError: null },
      now,
    );
    if (!moved) return { queued: false, reason: "running" };
    try {
      const jobId = await this.jobs.enqueue(runSyncJob(integration.companyId, integration.id, 0));
      return { queued: true, jobId };
    } catch (error) {
      // Not left `queued` with no job behind it: the next request may queue it again.
      const reason = error instanceof Error ? error.message : String(error);
      await this.integrations.update(
        integration.companyId,
        integration.id,
        { syncStatus: "failed", lastSyncError: `The sync could not be queued: ${reason}` },
        now,
      );
      throw error;
    }
  };
}
