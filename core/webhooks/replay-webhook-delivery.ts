import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { webhookDeliveryJob } from "./delivery-job.js";
import { DELIVERY_NOT_FOUND, WEBHOOK_NOT_FOUND, type WebhookDelivery } from "./model.js";
import type { WebhookRepository } from "./ports.js";
import { toWebhookDeliveryView, type WebhookDeliveryView } from "./view.js";

export interface ReplayedDelivery {
  readonly delivery: WebhookDeliveryView;
  readonly job: { readonly id: string; readonly status: "queued"; readonly runAt: string };
}

/**
 * POST /webhooks/{id}/deliveries/{deliveryId}/replay: the same event (same ID, same body) as a new
 * delivery, queued now with the usual retries; receivers that already handled it recognise its
 * event ID. A disabled webhook replays nothing.
 */
export class ReplayWebhookDelivery {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, webhookId: string, deliveryId: string): Promise<Result<ReplayedDelivery>> => {
    const found = await this.webhooks.find(actor.companyId, webhookId);
    if (!found) return fail(WEBHOOK_NOT_FOUND);
    const original = await this.webhooks.findDelivery(actor.companyId, deliveryId);
    if (!original || original.webhookId !== webhookId) return fail(DELIVERY_NOT_FOUND);
    if (found.webhook.status === "disabled") return fail(invalidState("The webhook is disabled: enable it to replay deliveries", { code: "webhook_disabled" }));
    const now = this.clock.now();
    const replay: WebhookDelivery = {
      ...original,
      id: this.ids.next("whd"),
      status: "pending",
      attempts: 0,
      responseCode: null,
      error: null,
      durationMs: null,
      nextAttemptAt: now,
      lastAttemptAt: null,
      deliveredAt: null,
      replayOf: original.id,
      createdAt: now,
    };
    const jobId = await this.webhooks.insertDelivery(replay, webhookDeliveryJob(actor.companyId, [replay.id], 1, now));
    return ok({ delivery: toWebhookDeliveryView(replay), job: { id: jobId ?? "", status: "queued", runAt: now.toISOString() } });
  };
}
