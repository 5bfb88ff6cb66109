import type { WorkOf } from "../jobs/job-definition.js";
import type { Clock } from "../ports/clock.js";
import { HttpRequestError, type HttpClient } from "../ports/http-client.js";
import type { SecretBox } from "../ports/secret-box.js";
import { webhookDeliveryJob, type WebhookDeliveryJob } from "./delivery-job.js";
import { DELIVERY_TIMEOUT_MS, healthAfter, isActiveSecret, isCircuitOpen, MAX_RESPONSE_BYTES, nextAttemptAfter, type WebhookDelivery } from "./model.js";
import type { AttemptResult, RecordedAttempt, WebhookRepository, WebhookSigner, WebhookWithSecrets } from "./ports.js";

/** The error recorded for an answer that is not 2xx: its status and the start of its body. */
function answerError(status: number, body: string): string {
  const excerpt = body.replace(/\s+/g, " ").trim().slice(0, 200);
  return `The endpoint answered HTTP ${status}${excerpt ? `: ${excerpt}` : ""}`;
}

/**
 * Delivers webhook events: the `webhook.deliver` job makes one attempt at each of its deliveries,
 * one after another. The body is signed with every active secret of the webhook
 * (`X-Sequenzy-Signature: v1=...,v1=...` over `v1:{timestamp}:{body}`) and POSTed through the
 * destination client (public addresses only, no redirects followed) with a 4 s limit. A 2xx answer
 * settles it; anything else is retried with back-off for up to 7 days. While the webhook's circuit
 * is open the attempts wait for it to close.
 *
 * Successes are recorded together, after the job's last request or with the next failure (a
 * failure is recorded at once, so the webhook's health is current for the other jobs). A worker
 * that stops in between loses only those records: those deliveries are made again, as at least
 * once allows, with the same event ID.
 */
export class DeliverWebhook {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly http: HttpClient,
    private readonly signer: WebhookSigner,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** Secrets opened before, by their sealed text (which never changes: a rotation adds a new one). */
  private readonly openedSecrets = new Map<string, string>();

  private opened(sealed: string): string {
    let plain = this.openedSecrets.get(sealed);
    if (plain === undefined) {
      if (this.openedSecrets.size >= 1_000) this.openedSecrets.clear();
      this.openedSecrets.set(sealed, (plain = this.box.open(sealed)));
    }
    return plain;
  }

  runJob = async ({ companyId, payload }: WorkOf<typeof WebhookDeliveryJob>): Promise<void> => {
    for (const { found, deliveries } of await this.webhooks.findForAttempts(companyId, payload.deliveryIds)) {
      // Gone with its webhook, settled, or this attempt was recorded before a crash.
      const due = deliveries.filter((delivery) => delivery.status === "pending" && delivery.attempts < payload.attempt);
      await this.attemptAll(found, due, payload.attempt);
    }
  };

  private async attemptAll({ webhook: stored, secrets }: WebhookWithSecrets, deliveries: readonly WebhookDelivery[], attempt: number): Promise<void> {
    if (stored.status === "disabled") {
      const now = this.clock.now();
      if (deliveries.length > 0) await this.webhooks.recordAttempts(deliveries.map((delivery) => ({ delivery, result: disabledResult(now) })));
      return;
    }
    // The webhook's health as this job's own attempts change it, for the circuit's sake.
    let webhook = stored;
    let unrecorded: RecordedAttempt[] = [];
    const record = async () => {
      if (unrecorded.length > 0) await this.webhooks.recordAttempts(unrecorded);
      unrecorded = [];
    };
    for (const [index, delivery] of deliveries.entries()) {
      const now = this.clock.now();
      if (isCircuitOpen(webhook, now)) {
        await record();
        const rest = deliveries.slice(index).map((waiting) => waiting.id);
        const until = webhook.circuitOpenUntil!;
        await this.webhooks.postpone(webhook.companyId, rest, until, webhookDeliveryJob(webhook.companyId, rest, attempt, until));
        return;
      }
      const made = await this.attemptResult({ webhook, secrets }, delivery, true);
      unrecorded.push(made);
      webhook = { ...webhook, ...healthAfter(webhook, made.result, made.result.at) };
      if (!made.result.ok) await record();
    }
    await record();
  }

  /** One attempt, recorded; `retry` false for a test delivery, which is tried once. */
  attempt = async (found: WebhookWithSecrets, delivery: WebhookDelivery, retry: boolean): Promise<WebhookDelivery | null> => {
    const [recorded] = await this.webhooks.recordAttempts([await this.attemptResult(found, delivery, retry)]);
    return recorded ?? null;
  };

  /** One request, and what it found. */
  private async attemptResult(found: WebhookWithSecrets, delivery: WebhookDelivery, retry: boolean): Promise<RecordedAttempt> {
    const now = this.clock.now();
    const secrets = found.secrets.filter((secret) => isActiveSecret(secret, now)).map((secret) => this.opened(secret.sealedSecret));
    const timestamp = Math.floor(now.getTime() / 1000);
    const started = performance.now();
    let outcome: Pick<AttemptResult, "ok" | "responseCode" | "error">;
    try {
      const response = await this.http.send({
        method: "POST",
        url: found.webhook.url,
        headers: {
          "content-type": "application/json",
          "user-agent": "lifecycle-email-webhooks/1",
          "x-sequenzy-timestamp": String(timestamp),
          "x-sequenzy-signature": this.signer.signature(secrets, timestamp, delivery.body),
          "x-sequenzy-event-id": delivery.eventId,
          "x-sequenzy-delivery-id": delivery.id,
        },
        body: delivery.body,
        timeoutMs: DELIVERY_TIMEOUT_MS,
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
      const ok = response.status >= 200 && response.status <= 299;
      outcome = { ok, responseCode: response.status, error: ok ? null : answerError(response.status, response.body) };
    } catch (error) {
      if (!(error instanceof HttpRequestError)) throw error;
      outcome = { ok: false, responseCode: null, error: error.message };
    }
    const durationMs = Math.round(performance.now() - started);
    const at = this.clock.now();
    const attempt = delivery.attempts + 1;
    const nextAt = outcome.ok || !retry ? null : nextAttemptAfter(attempt, delivery, at);
    return {
      delivery,
      result: {
        made: true,
        ...outcome,
        durationMs,
        at,
        healthyBefore: found.webhook.consecutiveFailures === 0 && found.webhook.circuitOpenUntil === null,
        retry: nextAt ? { at: nextAt, job: webhookDeliveryJob(delivery.companyId, [delivery.id], attempt + 1, nextAt) } : null,
      },
    };
  }
}

/** A delivery whose webhook was turned off: no request, and it fails for good. */
const disabledResult = (at: Date): AttemptResult => ({
  made: false,
  ok: false,
  responseCode: null,
  error: "The webhook was disabled before this delivery was made",
  durationMs: 0,
  at,
  healthyBefore: true,
  retry: null,
});
