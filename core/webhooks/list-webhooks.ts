import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { WebhookRepository } from "./ports.js";
import { toWebhookView, type WebhookView } from "./view.js";

/** GET /webhooks: the company's webhooks, newest first (compat-reference §21: no paging). */
export class ListWebhooks {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor): Promise<Result<WebhookView[]>> => {
    const now = this.clock.now();
    return ok((await this.webhooks.list(actor.companyId)).map((found) => toWebhookView(found, now)));
  };
}
