import type { Clock } from "../ports/clock.js";
import type { SecretBox } from "../ports/secret-box.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { DeliveryWebhookSecrets } from "./ports.js";

export interface DeliveryWebhookSecret {
  /** Shown once: only its sealed form is stored. */
  readonly secret: string;
  readonly webhookUrl: string;
  readonly signatureHeader: string;
  readonly createdAt: string;
}

export const GENERIC_SIGNATURE_HEADER = "X-Signature";

/** The URL a provider posts a company's delivery events to. */
export const deliveryWebhookUrl = (baseUrl: string, provider: string, companyId: string): string =>
  `${baseUrl.replace(/\/+$/, "")}/api/webhooks/${encodeURIComponent(provider)}/${encodeURIComponent(companyId)}`;

/**
 * Issues a new signing secret for the company's generic delivery webhook (replacing the one
 * before): the relay signs each raw body with HMAC-SHA256 and sends `X-Signature: sha256=<hex>`.
 */
export class CreateDeliveryWebhookSecret {
  constructor(
    private readonly secrets: DeliveryWebhookSecrets,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly baseUrl: string,
    private readonly newSecret: () => string,
  ) {}

  execute = async (actor: Actor): Promise<Result<DeliveryWebhookSecret>> => {
    const secret = this.newSecret();
    const now = this.clock.now();
    await this.secrets.saveSealed(actor.companyId, this.box.seal(secret), now);
    return ok({
      secret,
      webhookUrl: deliveryWebhookUrl(this.baseUrl, "generic", actor.companyId),
      signatureHeader: GENERIC_SIGNATURE_HEADER,
      createdAt: now.toISOString(),
    });
  };
}

/** The company's generic webhook secret, opened; null when it has none. */
export class OpenDeliveryWebhookSecret {
  constructor(
    private readonly secrets: DeliveryWebhookSecrets,
    private readonly box: SecretBox,
  ) {}

  execute = async (companyId: string): Promise<string | null> => {
    const sealed = await this.secrets.findSealed(companyId);
    return sealed === null ? null : this.box.open(sealed);
  };
}
