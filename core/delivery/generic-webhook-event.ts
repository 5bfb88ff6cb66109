import * as t from "io-ts";
import { IsoDate, oneOf, optional, TrimmedNonEmpty } from "../shared/codecs.js";
import { BOUNCE_TYPES, DELIVERY_EVENT_TYPES, type BounceType, type DeliveryEvent, type DeliveryEventType } from "./model.js";
import type { SendReference } from "./record-delivery-event.js";

/** The body of a generic delivery webhook (any relay can post it). */
export const GenericDeliveryEvent = t.exact(
  t.intersection([
    t.type({ type: oneOf<DeliveryEventType>(DELIVERY_EVENT_TYPES, "DeliveryEventType") }),
    t.partial({
      messageId: optional(TrimmedNonEmpty),
      emailSendId: optional(TrimmedNonEmpty),
      bounceType: optional(oneOf<BounceType>(BOUNCE_TYPES, "BounceType")),
      bounceSubType: optional(TrimmedNonEmpty),
      occurredAt: optional(IsoDate),
      id: optional(TrimmedNonEmpty),
    }),
  ]),
  "GenericDeliveryEvent",
);
export type GenericDeliveryEvent = t.TypeOf<typeof GenericDeliveryEvent>;

/**
 * The event in our terms. Without an `id` from the relay, the event is known by its type, send and
 * time, so a redelivery of the same body is still stored once.
 */
export function fromGenericEvent(body: GenericDeliveryEvent, now: Date): { reference: SendReference; event: DeliveryEvent } {
  const occurredAt = body.occurredAt ?? now;
  const sendKey = body.emailSendId ?? body.messageId ?? "";
  const providerEventId = body.id ? `generic:${body.id}` : `generic:${body.type}:${sendKey}:${body.occurredAt ? occurredAt.toISOString() : "-"}`;
  const bounceType = body.type === "bounced" ? (body.bounceType ?? "Undetermined") : undefined;
  return {
    reference: { emailSendId: body.emailSendId, messageIds: body.messageId ? [body.messageId] : [] },
    event: {
      type: body.type,
      providerEventId: providerEventId.slice(0, 255),
      occurredAt,
      ...(bounceType ? { bounceType, bounceSubType: body.bounceSubType ?? "General" } : {}),
      details: { provider: "generic" },
    },
  };
}
