import type { WorkOf } from "../jobs/job-definition.js";
import { onLastAttempt } from "../jobs/last-attempt.js";
import type { Clock } from "../ports/clock.js";
import type { Job } from "../ports/job-queue.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { ProcessDeliveryJob } from "./jobs.js";
import { skipped } from "./model.js";
import type { IntegrationDeliveryRepository, IntegrationRepository } from "./ports.js";
import { PROVIDER_MAPPINGS } from "./providers/index.js";
import { obj } from "./providers/payload.js";
import type { RecordProviderActivity } from "./record-provider-activity.js";
import { openCredentials } from "./sealed-credentials.js";

/**
 * Applies one stored webhook: maps it to contacts' attributes and events and records them. Run
 * again after a crash it does nothing new (a settled delivery is left alone; events carry the
 * provider's IDs, so recording them twice stores them once). Its last failed attempt settles the
 * delivery `failed` with the reason, which the activity route shows.
 */
export class ProcessProviderDelivery {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly deliveries: IntegrationDeliveryRepository,
    private readonly recordActivity: RecordProviderActivity,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  runJob = async (work: WorkOf<typeof ProcessDeliveryJob>, job: Pick<Job, "attempts" | "maxAttempts">): Promise<void> => {
    const { companyId } = work;
    const delivery = await this.deliveries.find(companyId, work.payload.deliveryId);
    if (!delivery || delivery.status === "processed" || delivery.status === "skipped" || delivery.status === "failed") return;
    await onLastAttempt(
      job,
      async () => {
        const integration = await this.integrations.find(companyId, delivery.integrationId);
        const now = this.clock.now();
        if (!integration || !integration.isActive)
          return this.deliveries.settle(
            companyId,
            delivery.id,
            "skipped",
            { subscriberIds: [], events: [], reason: "the integration is disconnected" },
            null,
            now,
          );
        if (!integration.syncEnabled)
          return this.deliveries.settle(
            companyId,
            delivery.id,
            "skipped",
            { subscriberIds: [], events: [], reason: "sync is disabled for this integration" },
            null,
            now,
          );
        const payload = obj(JSON.parse(delivery.body));
        const mapped = payload
          ? PROVIDER_MAPPINGS[delivery.provider].map(payload, {
              eventId: delivery.providerEventId,
              settings: integration.settings,
              receivedAt: delivery.receivedAt,
            })
          : skipped("the body is not a JSON object");
        const credentials = openCredentials(this.box, integration.id, integration.credentialsSealed);
        const recorded = await this.recordActivity.execute(integration, credentials, [mapped]);
        const reason = recorded.skipped.length > 0 ? recorded.skipped.join("; ") : undefined;
        const applied = recorded.subscriberIds.length > 0;
        await this.deliveries.settle(
          companyId,
          delivery.id,
          applied ? "processed" : "skipped",
          { subscriberIds: recorded.subscriberIds, events: recorded.events, ...(reason ? { reason } : {}) },
          null,
          this.clock.now(),
        );
      },
      async (error) => {
        const message = error instanceof Error ? error.message : String(error);
        await this.deliveries.settle(companyId, delivery.id, "failed", null, message, this.clock.now());
      },
    );
  };
}
