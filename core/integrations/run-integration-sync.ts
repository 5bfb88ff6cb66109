import type { WorkOf } from "../jobs/job-definition.js";
import { onLastAttempt } from "../jobs/last-attempt.js";
import type { Clock } from "../ports/clock.js";
import type { Job, JobQueue } from "../ports/job-queue.js";
import type { SecretBox } from "../ports/secret-box.js";
import { runSyncJob, type RunSyncJob } from "./jobs.js";
import type { Integration, SyncState } from "./model.js";
import { ProviderRefused, type IntegrationRepository, type ProviderApis } from "./ports.js";
import type { RecordProviderActivity } from "./record-provider-activity.js";
import { openCredentials } from "./sealed-credentials.js";

/**
 * One page of an integration's sync (revenue history, analytics history, affiliate referrals):
 * reads the page at the stored cursor, records its records as the contacts' events (history
 * older than an hour is stored and segmentable but starts no sequence), stores the next cursor,
 * then queues the next page, or settles the sync `succeeded`. A page read twice after a crash
 * records nothing twice: every event carries the provider's record ID. Credentials the provider
 * refuses fail the sync at once; other failures are retried, and the last attempt fails it.
 */
export class RunIntegrationSync {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly apis: ProviderApis,
    private readonly recordActivity: RecordProviderActivity,
    private readonly box: SecretBox,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  runJob = async (work: WorkOf<typeof RunSyncJob>, job: Pick<Job, "attempts" | "maxAttempts">): Promise<void> => {
    const integration = await this.integrations.find(work.companyId, work.payload.integrationId);
    if (!integration || !integration.syncState || (integration.syncStatus !== "queued" && integration.syncStatus !== "running")) return;
    // A page already read (this job ran before): only make sure its successor is queued.
    if (integration.syncState.pagesRead > work.payload.page) {
      if (integration.syncState.cursor !== null) await this.jobs.enqueue(runSyncJob(work.companyId, integration.id, integration.syncState.pagesRead));
      return;
    }
    if (!integration.isActive) return this.settle(integration, integration.syncState, "The integration was disconnected");
    await onLastAttempt(
      job,
      () => this.readPage(integration, integration.syncState!),
      async (error) => this.settle(integration, integration.syncState!, error instanceof Error ? error.message : String(error)),
    );
  };

  private async readPage(integration: Integration, state: SyncState): Promise<void> {
    const { companyId, id } = integration;
    await this.integrations.moveSyncStatus(companyId, id, ["queued", "running"], "running", {}, this.clock.now());
    const credentials = openCredentials(this.box, id, integration.credentialsSealed);
    let page;
    try {
      page = await this.apis.syncPage(integration, state.kind, credentials, state.cursor);
    } catch (error) {
      if (error instanceof ProviderRefused) return this.settle(integration, state, error.message);
      throw error;
    }
    const recorded = await this.recordActivity.execute(integration, credentials, page.records);
    const next: SyncState = {
      ...state,
      cursor: page.next,
      pagesRead: state.pagesRead + 1,
      recorded: state.recorded + recorded.events.length,
      skipped: state.skipped + page.records.filter((record) => record.kind === "skipped").length,
      finishedAt: page.next === null ? this.clock.now().toISOString() : null,
    };
    const now = this.clock.now();
    if (page.next === null) {
      await this.integrations.update(companyId, id, { syncStatus: "succeeded", syncState: next, lastSyncAt: now, lastSyncError: null }, now);
      return;
    }
    await this.integrations.update(companyId, id, { syncState: next }, now);
    await this.jobs.enqueue(runSyncJob(companyId, id, next.pagesRead));
  }

  private async settle(integration: Integration, state: SyncState, error: string): Promise<void> {
    const now = this.clock.now();
    await this.integrations.update(
      integration.companyId,
      integration.id,
      { syncStatus: "failed", syncState: { ...state, finishedAt: now.toISOString() }, lastSyncAt: now, lastSyncError: error },
      now,
    );
  }
}
