import * as t from "io-ts";
import { isLeft } from "fp-ts/lib/Either.js";
import { BOUNCE_TYPES, type BounceType, type DeliveryEvent } from "./model.js";
import type { SendReference } from "./record-delivery-event.js";

const Header = t.type({ name: t.string, value: t.string });

/** The parts of an Amazon SES notification (or event-publishing record) that we read. */
const SesNotification = t.intersection([
  t.partial({ notificationType: t.string, eventType: t.string }),
  t.type({
    mail: t.intersection([
      t.type({ messageId: t.string }),
      t.partial({ timestamp: t.string, headers: t.array(Header), commonHeaders: t.partial({ messageId: t.string }) }),
    ]),
  }),
  t.partial({
    bounce: t.intersection([t.type({ bounceType: t.string }), t.partial({ bounceSubType: t.string, timestamp: t.string, feedbackId: t.string })]),
    complaint: t.partial({ timestamp: t.string, feedbackId: t.string, complaintFeedbackType: t.string }),
    delivery: t.partial({ timestamp: t.string, smtpResponse: t.string }),
    deliveryDelay: t.partial({ timestamp: t.string, delayType: t.string, expirationTime: t.string }),
  }),
]);

const timeOr = (value: string | undefined, fallback: Date): Date => {
  const date = value ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date : fallback;
};

const bounceTypeOf = (value: string): BounceType => ((BOUNCE_TYPES as readonly string[]).includes(value) ? (value as BounceType) : "Undetermined");

/**
 * Reads the SES notification carried in an SNS message. `providerEventId` is the SNS message ID,
 * which SNS keeps when it delivers the same notification again. Null for notification types we
 * do not record (Send, Open, Click and so on come from our own tracking).
 */
export function fromSesNotification(message: unknown, snsMessageId: string, now: Date): { reference: SendReference; event: DeliveryEvent } | null {
  const decoded = SesNotification.decode(message);
  if (isLeft(decoded)) return null;
  const notification = decoded.right;
  const kind = notification.notificationType ?? notification.eventType;
  const header = notification.mail.headers?.find((h) => h.name.toLowerCase() === "message-id")?.value ?? notification.mail.commonHeaders?.messageId;
  const reference: SendReference = { messageIds: header ? [header, notification.mail.messageId] : [notification.mail.messageId] };
  const base = { providerEventId: `ses:${snsMessageId}`.slice(0, 255), details: { provider: "ses", sesMessageId: notification.mail.messageId } };

  if (kind === "Delivery") {
    return { reference, event: { ...base, type: "delivered", occurredAt: timeOr(notification.delivery?.timestamp, now) } };
  }
  if (kind === "Bounce" && notification.bounce) {
    const { bounce } = notification;
    return {
      reference,
      event: {
        ...base,
        type: "bounced",
        occurredAt: timeOr(bounce.timestamp, now),
        bounceType: bounceTypeOf(bounce.bounceType),
        bounceSubType: bounce.bounceSubType ?? "General",
      },
    };
  }
  if (kind === "Complaint") {
    return { reference, event: { ...base, type: "complained", occurredAt: timeOr(notification.complaint?.timestamp, now) } };
  }
  // Event publishing only (notifications have no such type): SES keeps trying until expirationTime.
  if (kind === "DeliveryDelay") {
    const delay = notification.deliveryDelay;
    const details = {
      ...base.details,
      ...(delay?.delayType ? { delayType: delay.delayType } : {}),
      ...(delay?.expirationTime ? { expirationTime: delay.expirationTime } : {}),
    };
    return { reference, event: { ...base, details, type: "delayed", occurredAt: timeOr(delay?.timestamp, now) } };
  }
  return null;
}
