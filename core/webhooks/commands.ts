import * as t from "io-ts";
import { boundedArray } from "../shared/bounded-array.js";
import { boundedText, integerBetween, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { withSchema } from "../shared/json-schema.js";
import { WEBHOOK_EVENT_TYPES, WEBHOOK_STATUSES } from "./model.js";

/**
 * Inputs of the outbound webhook routes (compat-reference §21). Types and enumerations are
 * checked here (422: an unknown event type); whether the URL may be called is the use case's (400).
 */

export const MAX_URL_LENGTH = 2048;

/** A string of at most MAX_URL_LENGTH characters; its scheme and host are checked by webhookUrlProblem. */
const WebhookUrl = withSchema(
  new t.Type<string, string, unknown>(
    "WebhookUrl",
    (u): u is string => typeof u === "string",
    (u, c) => {
      if (typeof u !== "string") return t.failure(u, c, "must be a string");
      const trimmed = u.trim();
      if (trimmed.length === 0) return t.failure(u, c, "must not be blank");
      return trimmed.length <= MAX_URL_LENGTH ? t.success(trimmed) : t.failure(u, c, `must be at most ${MAX_URL_LENGTH} characters`);
    },
    t.identity,
  ),
  { type: "string", format: "uri", maxLength: MAX_URL_LENGTH, description: "an https:// URL of a public host" },
);

export const WebhookEventTypeCodec = oneOf(WEBHOOK_EVENT_TYPES, "WebhookEventType");
const Events = boundedArray(WebhookEventTypeCodec, 1, WEBHOOK_EVENT_TYPES.length * 2);

/** POST /webhooks. */
export const CreateWebhookCommand = t.exact(
  t.intersection([t.type({ name: required(boundedText(255)), url: required(WebhookUrl) }), t.partial({ events: optional(Events) })]),
  "CreateWebhookCommand",
);
export type CreateWebhookCommand = t.TypeOf<typeof CreateWebhookCommand>;

/** PATCH /webhooks/{id}: at least one field; `events` replaces the list. */
export const UpdateWebhookCommand = t.exact(
  t.partial({
    name: optional(boundedText(255)),
    url: optional(WebhookUrl),
    events: optional(Events),
    status: optional(oneOf(WEBHOOK_STATUSES, "WebhookStatus")),
  }),
  "UpdateWebhookCommand",
);
export type UpdateWebhookCommand = t.TypeOf<typeof UpdateWebhookCommand>;

/** A rotated-out secret signs alongside the new one for this long by default, and at most a week. */
export const DEFAULT_GRACE_PERIOD_HOURS = 24;
export const MAX_GRACE_PERIOD_HOURS = 168;

/** POST /webhooks/{id}/signing-secrets: a new secret; the current ones keep signing for the grace period. */
export const RotateWebhookSecretCommand = t.exact(
  t.partial({ gracePeriodHours: optional(integerBetween(0, MAX_GRACE_PERIOD_HOURS)) }),
  "RotateWebhookSecretCommand",
);
export type RotateWebhookSecretCommand = t.TypeOf<typeof RotateWebhookSecretCommand>;

export const DEFAULT_DELIVERIES_LIMIT = 50;

/** GET /webhooks/{id}/deliveries: the newest `limit` (1-100). */
export const ListWebhookDeliveriesQuery = t.exact(t.partial({ limit: optional(integerBetween(1, 100)) }), "ListWebhookDeliveriesQuery");
export type ListWebhookDeliveriesQuery = t.TypeOf<typeof ListWebhookDeliveriesQuery>;

export const WebhookPath = t.type({ webhookId: TrimmedNonEmpty }, "WebhookPath");
export const WebhookDeliveryPath = t.type({ webhookId: TrimmedNonEmpty, deliveryId: TrimmedNonEmpty }, "WebhookDeliveryPath");
