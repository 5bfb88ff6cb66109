import * as t from "io-ts";
import { Id, NullableTimestamp, Timestamp, view, viewWithOptional } from "../shared/view-fields.js";
import { isActiveSecret, type WebhookDelivery } from "./model.js";
import type { WebhookWithSecrets } from "./ports.js";

const NullableNumber = t.union([t.number, t.null]);

/** A signing secret as listed: never the secret itself. */
export const SigningSecretView = view({ id: Id, prefix: t.string, createdAt: Timestamp, expiresAt: NullableTimestamp }, "WebhookSigningSecret");

/** The webhook record (compat-reference §21); `signingSecret` only in the answer that made it. */
export const WebhookView = viewWithOptional(
  {
    id: Id,
    name: t.string,
    url: t.string,
    status: t.string,
    events: t.readonlyArray(t.string),
    consecutiveFailures: t.number,
    circuitOpenedAt: NullableTimestamp,
    circuitOpenUntil: NullableTimestamp,
    signingSecrets: t.readonlyArray(SigningSecretView),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { signingSecret: t.string },
  "Webhook",
);
export type WebhookView = t.TypeOf<typeof WebhookView>;

/** The webhook as listed; `now` leaves out secrets whose grace period is over. */
export const toWebhookView = ({ webhook, secrets }: WebhookWithSecrets, now: Date, signingSecret?: string): WebhookView => ({
  id: webhook.id,
  name: webhook.name,
  url: webhook.url,
  status: webhook.status,
  events: webhook.events,
  consecutiveFailures: webhook.consecutiveFailures,
  circuitOpenedAt: webhook.circuitOpenedAt?.toISOString() ?? null,
  circuitOpenUntil: webhook.circuitOpenUntil?.toISOString() ?? null,
  signingSecrets: secrets
    .filter((secret) => isActiveSecret(secret, now))
    .map((secret) => ({ id: secret.id, prefix: secret.prefix, createdAt: secret.createdAt.toISOString(), expiresAt: secret.expiresAt?.toISOString() ?? null })),
  createdAt: webhook.createdAt.toISOString(),
  updatedAt: webhook.updatedAt.toISOString(),
  ...(signingSecret !== undefined ? { signingSecret } : {}),
});

/** One delivery: its status, the receiver's response code, and the error of the last attempt. */
export const WebhookDeliveryView = view(
  {
    id: Id,
    webhookId: Id,
    eventId: t.string,
    eventType: t.string,
    status: t.string,
    attempts: t.number,
    responseCode: NullableNumber,
    error: t.union([t.string, t.null]),
    durationMs: NullableNumber,
    nextAttemptAt: NullableTimestamp,
    lastAttemptAt: NullableTimestamp,
    deliveredAt: NullableTimestamp,
    replayOf: t.union([t.string, t.null]),
    createdAt: Timestamp,
  },
  "WebhookDelivery",
);
export type WebhookDeliveryView = t.TypeOf<typeof WebhookDeliveryView>;

export const toWebhookDeliveryView = (delivery: WebhookDelivery): WebhookDeliveryView => ({
  id: delivery.id,
  webhookId: delivery.webhookId,
  eventId: delivery.eventId,
  eventType: delivery.eventType,
  status: delivery.status,
  attempts: delivery.attempts,
  responseCode: delivery.responseCode,
  error: delivery.error,
  durationMs: delivery.durationMs,
  nextAttemptAt: delivery.nextAttemptAt?.toISOString() ?? null,
  lastAttemptAt: delivery.lastAttemptAt?.toISOString() ?? null,
  deliveredAt: delivery.deliveredAt?.toISOString() ?? null,
  replayOf: delivery.replayOf,
  createdAt: delivery.createdAt.toISOString(),
});
