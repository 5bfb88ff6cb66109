import type { Actor } from "../shared/actor.js";
import { badRequest, conflict } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { catalogEntry } from "./catalog.js";
import { integrationNotFound } from "./errors.js";
import type { IntegrationRepository } from "./ports.js";
import type { QueueSync } from "./queue-sync.js";

export interface RequestedSync {
  readonly integrationId: string;
  readonly provider: string;
  readonly jobId: string | null;
  readonly syncStatus: string | null;
  readonly syncTarget: string;
  readonly message: string;
}

const TARGETS = { revenue: "revenue history", history: "event history", backfill: "affiliate referrals" } as const;

/** POST /integrations/{id}/sync: queues the provider's sync; 409 while one is queued or running. */
export class RequestIntegrationSync {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly queueSync: QueueSync,
  ) {}

  execute = async (actor: Actor, integrationId: string): Promise<Result<RequestedSync>> => {
    const integration = await this.integrations.find(actor.companyId, integrationId);
    if (!integration) return fail(integrationNotFound());
    const entry = catalogEntry(integration.provider);
    if (!integration.isActive) return fail(badRequest("The integration is disconnected: connect it again first"));
    if (!entry.sync) return fail(badRequest(`${entry.name} has nothing to sync: its events arrive by webhook`));
    if (!integration.syncEnabled) return fail(badRequest("Sync is disabled for this integration: enable it with PATCH {syncEnabled: true}"));
    const queued = await this.queueSync.execute(integration, entry.sync);
    if (!queued.queued && queued.reason === "running") return fail(conflict("A sync of this integration is already queued or running"));
    if (!queued.queued) return fail(badRequest(`Syncing ${TARGETS[entry.sync]} from ${entry.name} is not available yet; webhooks still arrive`));
    return ok({
      integrationId: integration.id,
      provider: integration.provider,
      jobId: queued.jobId,
      syncStatus: "queued",
      syncTarget: TARGETS[entry.sync],
      message: `Sync of ${TARGETS[entry.sync]} from ${entry.name} queued`,
    });
  };
}
