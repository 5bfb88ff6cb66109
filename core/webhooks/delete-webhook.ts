import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { WEBHOOK_NOT_FOUND } from "./model.js";
import type { WebhookRepository } from "./ports.js";

/** DELETE /webhooks/{id}: the webhook and its delivery history go; deliveries still queued are dropped. */
export class DeleteWebhook {
  constructor(private readonly webhooks: WebhookRepository) {}

  execute = async (actor: Actor, webhookId: string): Promise<Result<{ webhookId: string }>> =>
    (await this.webhooks.delete(actor.companyId, webhookId)) ? ok({ webhookId }) : fail(WEBHOOK_NOT_FOUND);
}
