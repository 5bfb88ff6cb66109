import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { DEFAULT_DELIVERIES_LIMIT, type ListWebhookDeliveriesQuery } from "./commands.js";
import { WEBHOOK_NOT_FOUND } from "./model.js";
import type { WebhookRepository } from "./ports.js";
import { toWebhookDeliveryView, type WebhookDeliveryView } from "./view.js";

/** GET /webhooks/{id}/deliveries: the newest deliveries, with their status, response code and error. */
export class ListWebhookDeliveries {
  constructor(private readonly webhooks: WebhookRepository) {}

  execute = async (actor: Actor, webhookId: string, query: ListWebhookDeliveriesQuery): Promise<Result<WebhookDeliveryView[]>> => {
    if (!(await this.webhooks.find(actor.companyId, webhookId))) return fail(WEBHOOK_NOT_FOUND);
    const deliveries = await this.webhooks.listDeliveries(actor.companyId, webhookId, query.limit ?? DEFAULT_DELIVERIES_LIMIT);
    return ok(deliveries.map(toWebhookDeliveryView));
  };
}
