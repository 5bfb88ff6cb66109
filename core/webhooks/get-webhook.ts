import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { WEBHOOK_NOT_FOUND } from "./model.js";
import type { WebhookRepository } from "./ports.js";
import { toWebhookView, type WebhookView } from "./view.js";

/** GET /webhooks/{id}: one webhook of the company; another company's is not found. */
export class GetWebhook {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, webhookId: string): Promise<Result<WebhookView>> => {
    const found = await this.webhooks.find(actor.companyId, webhookId);
    return found ? ok(toWebhookView(found, this.clock.now())) : fail(WEBHOOK_NOT_FOUND);
  };
}
