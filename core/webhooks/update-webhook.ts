import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { UpdateWebhookCommand } from "./commands.js";
import { WEBHOOK_NOT_FOUND } from "./model.js";
import type { WebhookChanges, WebhookRepository } from "./ports.js";
import { toWebhookView, type WebhookView } from "./view.js";
import { webhookUrlProblem } from "./webhook-url.js";

/**
 * PATCH /webhooks/{id} (compat-reference §21): at least one of name, url, events (replaces the
 * list), status. A disabled webhook is sent no new events; turning it back on closes its circuit.
 */
export class UpdateWebhook {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly clock: Clock,
    private readonly allowPrivateDestinations: boolean,
  ) {}

  execute = async (actor: Actor, webhookId: string, input: UpdateWebhookCommand): Promise<Result<WebhookView>> => {
    if (input.name === undefined && input.url === undefined && input.events === undefined && input.status === undefined) {
      return fail(badRequest("Provide at least one of name, url, events, status", { code: "invalid_input" }));
    }
    if (input.url !== undefined) {
      const problem = webhookUrlProblem(input.url, this.allowPrivateDestinations);
      if (problem) return fail(badRequest(problem, { code: "invalid_input" }));
    }
    const changes: WebhookChanges = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.events !== undefined ? { events: [...new Set(input.events)] } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
    };
    const now = this.clock.now();
    const updated = await this.webhooks.update(actor.companyId, webhookId, changes, now);
    return updated ? ok(toWebhookView(updated, now)) : fail(WEBHOOK_NOT_FOUND);
  };
}
