import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { SecretBox } from "../ports/secret-box.js";
import { badRequest, notFound, unauthorized } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { processDeliveryJob } from "./jobs.js";
import type { IntegrationDelivery, Provider } from "./model.js";
import type { IntegrationDeliveryRepository, IntegrationRepository, WebhookHeaders, WebhookSignatures } from "./ports.js";
import { PROVIDER_MAPPINGS } from "./providers/index.js";
import { obj } from "./providers/payload.js";
import { openCredentials } from "./sealed-credentials.js";

/** Largest webhook body accepted (providers' events are a few kilobytes). */
export const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;

export const INTEGRATION_NOT_CONNECTED = "No active integration for this provider and company";

export interface ReceivedWebhook {
  readonly deliveryId: string;
  /** The provider event was received before: nothing was done again. */
  readonly duplicate: boolean;
}

const utf8 = new TextDecoder("utf-8");

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A provider's webhook at `{base_url}/api/webhooks/{provider}/{companyId}`: refused (4xx, nothing
 * stored) unless the company has the provider connected and the request carries the provider's
 * own signature within its replay window. A verified delivery is stored once per provider event
 * ID and answered at once; a job applies it. A redelivery is answered 200 and does nothing.
 */
export class ReceiveProviderWebhook {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly deliveries: IntegrationDeliveryRepository,
    private readonly signatures: WebhookSignatures,
    private readonly box: SecretBox,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (provider: Provider, companyId: string, headers: WebhookHeaders, body: Uint8Array): Promise<Result<ReceivedWebhook>> => {
    if (body.byteLength > WEBHOOK_BODY_LIMIT_BYTES) return fail(badRequest(`The body is larger than ${WEBHOOK_BODY_LIMIT_BYTES} bytes`));
    const integration = await this.integrations.findByProvider(companyId, provider);
    if (!integration || !integration.isActive) return fail(notFound(INTEGRATION_NOT_CONNECTED));
    const now = this.clock.now();
    const { webhookSecret } = openCredentials(this.box, integration.id, integration.credentialsSealed);
    const verdict = this.signatures.verify(provider, webhookSecret, headers, body, now);
    if (!verdict.valid) return fail(unauthorized(verdict.reason));

    const text = utf8.decode(body);
    const payload = obj(parseJson(text));
    if (!payload) return fail(badRequest("The body is not a JSON object"));
    const identified = PROVIDER_MAPPINGS[provider].identify(payload, headers);
    if (!identified) return fail(badRequest("The payload names no event ID or type"));

    const delivery: IntegrationDelivery = {
      id: this.ids.next("whd"),
      companyId,
      integrationId: integration.id,
      provider,
      providerEventId: identified.eventId.slice(0, 255),
      eventType: identified.eventType.slice(0, 255),
      status: "received",
      body: text,
      outcome: null,
      error: null,
      receivedAt: now,
      processedAt: null,
    };
    if (await this.deliveries.insert(delivery)) {
      await this.enqueue(delivery);
      return ok({ deliveryId: delivery.id, duplicate: false });
    }
    const original = await this.deliveries.findByEvent(companyId, provider, delivery.providerEventId);
    if (!original) throw new Error(`delivery ${delivery.providerEventId} of ${provider} was refused as a duplicate but is not stored`);
    // Stored but never queued (the process stopped in between): the redelivery queues it.
    if (original.status === "received") await this.enqueue(original);
    return ok({ deliveryId: original.id, duplicate: true });
  };

  private async enqueue(delivery: IntegrationDelivery): Promise<void> {
    await this.jobs.enqueue(processDeliveryJob(delivery.companyId, delivery.id));
    await this.deliveries.markQueued(delivery.companyId, delivery.id);
  }
}
