import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { RandomTokens } from "../ports/random-tokens.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { DEFAULT_GRACE_PERIOD_HOURS, type RotateWebhookSecretCommand } from "./commands.js";
import { WEBHOOK_NOT_FOUND } from "./model.js";
import type { WebhookRepository } from "./ports.js";
import { newSigningSecret } from "./signing-secret.js";
import { toWebhookView, type WebhookView } from "./view.js";

const HOUR_MS = 60 * 60 * 1000;

/**
 * POST /webhooks/{id}/signing-secrets: a new signing secret, shown in this answer only. The
 * secrets current until now keep signing (one more `v1=` entry per delivery) for the grace
 * period, so a receiver can switch to the new one without refusing a delivery; 0 drops them now.
 */
export class RotateWebhookSecret {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly box: SecretBox,
    private readonly ids: IdGenerator,
    private readonly tokens: RandomTokens,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, webhookId: string, input: RotateWebhookSecretCommand): Promise<Result<WebhookView>> => {
    const now = this.clock.now();
    const secret = newSigningSecret(webhookId, now, { ids: this.ids, tokens: this.tokens, box: this.box });
    const expireAt = new Date(now.getTime() + (input.gracePeriodHours ?? DEFAULT_GRACE_PERIOD_HOURS) * HOUR_MS);
    const rotated = await this.webhooks.rotateSecret(actor.companyId, webhookId, secret.record, expireAt);
    return rotated ? ok(toWebhookView(rotated, now, secret.plain)) : fail(WEBHOOK_NOT_FOUND);
  };
}
