import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { DeliverWebhook } from "./deliver-webhook.js";
import { emailWebhookEvent } from "./event-data.js";
import { WEBHOOK_NOT_FOUND, webhookEventBody, type WebhookDelivery } from "./model.js";
import type { WebhookRepository } from "./ports.js";
import { toWebhookDeliveryView, toWebhookView, type WebhookDeliveryView, type WebhookView } from "./view.js";

/**
 * POST /webhooks/{id}/test: sends a sample event (the webhook's first event type, `data.test:
 * true`) at once, signed like any other, and answers with the attempt's outcome. It is tried once
 * (no retries), even while the circuit is open, and a success closes the circuit: the way to
 * check a fixed endpoint. Another company's webhook is not found.
 */
export class TestWebhook {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly deliver: DeliverWebhook,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, webhookId: string): Promise<Result<{ webhook: WebhookView; delivery: WebhookDeliveryView }>> => {
    const found = await this.webhooks.find(actor.companyId, webhookId);
    if (!found) return fail(WEBHOOK_NOT_FOUND);
    const now = this.clock.now();
    const event = emailWebhookEvent(
      this.ids.next("evt"),
      found.webhook.events[0] ?? "email.sent",
      now,
      {
        emailSendId: "send_test",
        messageId: "<send_test@example.com>",
        campaignId: null,
        sequenceId: null,
        transactionalEmailId: null,
        subscriberId: null,
        externalId: null,
        recipient: "test@example.com",
        subject: "Test event",
        emailType: "transactional",
      },
      { test: true },
    );
    const delivery: WebhookDelivery = {
      id: this.ids.next("whd"),
      companyId: actor.companyId,
      webhookId,
      eventId: event.id,
      eventType: event.type,
      body: webhookEventBody(event),
      status: "pending",
      attempts: 0,
      responseCode: null,
      error: null,
      durationMs: null,
      nextAttemptAt: null,
      lastAttemptAt: null,
      deliveredAt: null,
      replayOf: null,
      createdAt: now,
    };
    await this.webhooks.insertDelivery(delivery, null);
    const attempted = (await this.deliver.attempt(found, delivery, false)) ?? delivery;
    const after = (await this.webhooks.find(actor.companyId, webhookId)) ?? found;
    return ok({ webhook: toWebhookView(after, this.clock.now()), delivery: toWebhookDeliveryView(attempted) });
  };
}
