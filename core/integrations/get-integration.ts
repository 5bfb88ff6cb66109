import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { ACTIVITY_WINDOW_HOURS, activitySince } from "./activity-window.js";
import { catalogEntry } from "./catalog.js";
import { integrationNotFound } from "./errors.js";
import { listTargetingOf, type ListTargeting } from "./model.js";
import type { IntegrationDeliveryRepository, IntegrationRepository, ProviderApis } from "./ports.js";
import { toIntegrationView, type IntegrationView } from "./view.js";
import { integrationWebhookUrl } from "./webhook-url.js";

/** Deliveries read to summarise recent activity. */
const SUMMARY_SAMPLE = 100;

export interface IntegrationDetails {
  readonly integration: IntegrationView;
  readonly capabilities: { readonly webhooks: boolean; readonly sync: string | null; readonly webhookUrl: string };
  readonly events: string[];
  readonly unusedEvents: string[];
  readonly activity: {
    readonly windowHours: number;
    readonly received: number;
    readonly processed: number;
    readonly skipped: number;
    readonly failed: number;
    readonly lastReceivedAt: string | null;
  };
  readonly ingestion: { readonly listTargeting: ListTargeting; readonly listIds: string[] };
  readonly pixel: null;
  readonly recommendations: string[];
  readonly availableActions: string[];
}

/** GET /integrations/{id}: the integration, what it can do, the events it brought lately and what to do next (compat-reference §23). */
export class GetIntegration {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly deliveries: IntegrationDeliveryRepository,
    private readonly apis: ProviderApis,
    private readonly clock: Clock,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, integrationId: string): Promise<Result<IntegrationDetails>> => {
    const integration = await this.integrations.find(actor.companyId, integrationId);
    if (!integration) return fail(integrationNotFound());
    const entry = catalogEntry(integration.provider);
    const recent = await this.deliveries.list(actor.companyId, {
      integrationId: integration.id,
      since: activitySince(this.clock.now()),
      limit: SUMMARY_SAMPLE,
    });
    const seen = new Set(recent.flatMap((delivery) => delivery.outcome?.events ?? []));
    const count = (status: string) => recent.filter((delivery) => delivery.status === status).length;
    const sync = entry.sync && this.apis.supportsSync(integration.provider, entry.sync) ? entry.sync : null;
    const webhookUrl = integrationWebhookUrl(this.baseUrl, integration.provider, actor.companyId);
    const recommendations = [
      ...(integration.isActive && recent.length === 0
        ? [
            `No webhook arrived in the last ${ACTIVITY_WINDOW_HOURS} hours: check that ${webhookUrl} is set in ${entry.name}'s webhook settings with the same secret.`,
          ]
        : []),
      ...(count("failed") > 0 ? ["Some webhooks failed: see GET /api/v1/integrations/activity?status=failed for the reasons."] : []),
      ...(integration.lastSyncError
        ? [`The last sync failed (${integration.lastSyncError}); run it again with POST /api/v1/integrations/${integration.id}/sync.`]
        : []),
      ...(!integration.isActive ? ["This integration is disconnected: connect it again to receive its events."] : []),
    ];
    return ok({
      integration: toIntegrationView(integration),
      capabilities: { webhooks: true, sync, webhookUrl },
      events: entry.events.filter((name) => seen.has(name)),
      unusedEvents: entry.events.filter((name) => !seen.has(name)),
      activity: {
        windowHours: ACTIVITY_WINDOW_HOURS,
        received: recent.length,
        processed: count("processed"),
        skipped: count("skipped"),
        failed: count("failed"),
        lastReceivedAt: recent[0]?.receivedAt.toISOString() ?? null,
      },
      ingestion: { listTargeting: listTargetingOf(integration.settings.listIds), listIds: [...(integration.settings.listIds ?? [])] },
      pixel: null,
      recommendations,
      availableActions: integration.isActive ? [...(sync ? ["sync"] : []), "update", "disconnect"] : ["connect"],
    });
  };
}
