import { notFound } from "../shared/errors.js";

/** Every event an outbound webhook can subscribe to (compat-reference §21). */
export const WEBHOOK_EVENT_TYPES = [
  "email.sent",
  "email.delivered",
  "email.delivery_delayed",
  "email.bounced",
  "email.failed",
  "email.complained",
  "email.opened",
  "email.clicked",
  "email.replied",
  "email.unsubscribed",
  "sms.sent",
  "sms.delivered",
  "sms.failed",
  "sms.opted_out",
  "subscriber.invalid",
  "subscriber.created",
  "subscriber.updated",
  "subscriber.unsubscribed",
  "subscriber.list_subscribed",
  "subscriber.list_unsubscribed",
  "sequence.finished",
  "sequence.failed",
  "poll.answered",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The events of a webhook created without `events` (compat-reference §21). */
export const DEFAULT_WEBHOOK_EVENTS: readonly WebhookEventType[] = [
  "email.sent",
  "email.delivered",
  "email.delivery_delayed",
  "email.bounced",
  "email.complained",
  "email.unsubscribed",
  "subscriber.invalid",
  "subscriber.unsubscribed",
];

export const WEBHOOK_STATUSES = ["enabled", "disabled"] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];

/** A customer's endpoint that receives the company's events, signed. */
export interface Webhook {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly url: string;
  readonly status: WebhookStatus;
  readonly events: readonly WebhookEventType[];
  /** Failed attempts in a row; any success resets it. */
  readonly consecutiveFailures: number;
  readonly circuitOpenedAt: Date | null;
  /** While in the future, no attempt is made: deliveries wait for it. */
  readonly circuitOpenUntil: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/**
 * A signing secret of a webhook, stored sealed. A rotated-out secret keeps signing until
 * `expiresAt` (its grace period), so receivers can switch without losing a delivery.
 */
export interface WebhookSigningSecret {
  readonly id: string;
  readonly webhookId: string;
  /** The first characters of the secret, to tell secrets apart (`whsec_AbCdEf`). */
  readonly prefix: string;
  readonly sealedSecret: string;
  readonly createdAt: Date;
  /** Null while current; set when a newer secret replaced it. */
  readonly expiresAt: Date | null;
}

export const isActiveSecret = (secret: Pick<WebhookSigningSecret, "expiresAt">, now: Date): boolean =>
  secret.expiresAt === null || secret.expiresAt.getTime() > now.getTime();

export const SIGNING_SECRET_PREFIX = "whsec_";
/** Characters of a secret shown as its prefix. */
export const SECRET_PREFIX_LENGTH = 12;

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event on its way to one webhook: the body is fixed when it is made, so every attempt sends the same bytes. */
export interface WebhookDelivery {
  readonly id: string;
  readonly companyId: string;
  readonly webhookId: string;
  /** The event's ID: the same in every attempt, every replay and every webhook it goes to. */
  readonly eventId: string;
  readonly eventType: WebhookEventType;
  /** The JSON body sent. */
  readonly body: string;
  readonly status: DeliveryStatus;
  readonly attempts: number;
  readonly responseCode: number | null;
  readonly error: string | null;
  readonly durationMs: number | null;
  readonly nextAttemptAt: Date | null;
  readonly lastAttemptAt: Date | null;
  readonly deliveredAt: Date | null;
  /** The delivery this one replays, if it is a replay. */
  readonly replayOf: string | null;
  readonly createdAt: Date;
}

/** An event as a source hands it to the publisher; its body is built from it once. */
export interface WebhookEvent {
  readonly id: string;
  readonly type: WebhookEventType;
  readonly occurredAt: Date;
  readonly data: Readonly<Record<string, unknown>>;
}

/** The delivery payload (compat-reference §21): snake_case, `object: "event"`. */
export const webhookEventBody = (event: WebhookEvent): string =>
  JSON.stringify({
    id: event.id,
    type: event.type,
    object: "event",
    metric: event.type.slice(event.type.indexOf(".") + 1),
    created_at: event.occurredAt.toISOString(),
    data: event.data,
  });

/** A receiver must answer within this long (compat-reference §21). */
export const DELIVERY_TIMEOUT_MS = 4_000;
/** Only this much of a receiver's answer is read. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** An event is retried for this long after it happened, then given up. */
export const RETRY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;
/** First retry after 30 s, doubling each time, at most a day apart. */
export const FIRST_RETRY_MS = 30_000;
export const MAX_RETRY_DELAY_MS = 24 * 60 * 60 * 1000;

/** When to try again after `attempts` failed attempts, or null when the retry window is spent. */
export function nextAttemptAfter(attempts: number, delivery: Pick<WebhookDelivery, "createdAt">, now: Date): Date | null {
  const delay = Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
  const next = new Date(now.getTime() + delay);
  return next.getTime() > delivery.createdAt.getTime() + RETRY_WINDOW_MS ? null : next;
}

/** Failures in a row that open the circuit: the endpoint gets a rest instead of every queued delivery. */
export const CIRCUIT_THRESHOLD = 5;
/** The rest doubles with each failure past the threshold: 1 min, 2 min, ... at most an hour. */
export const CIRCUIT_BASE_MS = 60_000;
export const CIRCUIT_MAX_MS = 60 * 60 * 1000;

export const circuitRestMs = (consecutiveFailures: number): number =>
  Math.min(CIRCUIT_MAX_MS, CIRCUIT_BASE_MS * 2 ** Math.max(0, consecutiveFailures - CIRCUIT_THRESHOLD));

export const isCircuitOpen = (webhook: Pick<Webhook, "circuitOpenUntil">, now: Date): boolean =>
  webhook.circuitOpenUntil !== null && webhook.circuitOpenUntil.getTime() > now.getTime();

/** The outcome of one attempt, as the webhook's health records it. */
export type AttemptOutcome = { readonly ok: true } | { readonly ok: false };

/** The webhook's failure count and circuit after an attempt. */
export function healthAfter(
  webhook: Pick<Webhook, "consecutiveFailures" | "circuitOpenedAt" | "circuitOpenUntil">,
  outcome: AttemptOutcome,
  now: Date,
): Pick<Webhook, "consecutiveFailures" | "circuitOpenedAt" | "circuitOpenUntil"> {
  if (outcome.ok) return { consecutiveFailures: 0, circuitOpenedAt: null, circuitOpenUntil: null };
  const failures = webhook.consecutiveFailures + 1;
  if (failures < CIRCUIT_THRESHOLD)
    return { consecutiveFailures: failures, circuitOpenedAt: webhook.circuitOpenedAt, circuitOpenUntil: webhook.circuitOpenUntil };
  return {
    consecutiveFailures: failures,
    circuitOpenedAt: webhook.circuitOpenedAt ?? now,
    circuitOpenUntil: new Date(now.getTime() + circuitRestMs(failures)),
  };
}

export const WEBHOOK_NOT_FOUND = notFound("Webhook not found");
export const DELIVERY_NOT_FOUND = notFound("Webhook delivery not found");
