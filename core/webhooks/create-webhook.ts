import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { RandomTokens } from "../ports/random-tokens.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CreateWebhookCommand } from "./commands.js";
import { DEFAULT_WEBHOOK_EVENTS, type Webhook } from "./model.js";
import type { WebhookRepository } from "./ports.js";
import { newSigningSecret } from "./signing-secret.js";
import { toWebhookView, type WebhookView } from "./view.js";
import { webhookUrlProblem } from "./webhook-url.js";

/**
 * POST /webhooks: an enabled webhook with its first signing secret, which this answer alone
 * carries (`signingSecret`); only its sealed form is stored. Without `events`, the default set.
 */
export class CreateWebhook {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly box: SecretBox,
    private readonly ids: IdGenerator,
    private readonly tokens: RandomTokens,
    private readonly clock: Clock,
    private readonly allowPrivateDestinations: boolean,
  ) {}

  execute = async (actor: Actor, input: CreateWebhookCommand): Promise<Result<WebhookView>> => {
    const problem = webhookUrlProblem(input.url, this.allowPrivateDestinations);
    if (problem) return fail(badRequest(problem, { code: "invalid_input" }));
    const now = this.clock.now();
    const webhook: Webhook = {
      id: this.ids.next("wh"),
      companyId: actor.companyId,
      name: input.name,
      url: input.url,
      status: "enabled",
      events: [...new Set(input.events ?? DEFAULT_WEBHOOK_EVENTS)],
      consecutiveFailures: 0,
      circuitOpenedAt: null,
      circuitOpenUntil: null,
      createdAt: now,
      updatedAt: now,
    };
    const secret = newSigningSecret(webhook.id, now, { ids: this.ids, tokens: this.tokens, box: this.box });
    await this.webhooks.insert(webhook, secret.record);
    return ok(toWebhookView({ webhook, secrets: [secret.record] }, now, secret.plain));
  };
}
