import type { MailboxProvider } from "../metrics/mailbox-provider.js";

export const EMAIL_TYPES = ["campaign", "transactional", "sequence"] as const;
export type EmailType = (typeof EMAIL_TYPES)[number];

/** Transactional sends only: `transactional` (service mail) or `marketing` (suppression and RFC 8058 headers). */
export const SEND_KINDS = ["transactional", "marketing"] as const;
export type SendKind = (typeof SEND_KINDS)[number];

/**
 * Service mail (a receipt, a password reset): a transactional send not marked `marketing`.
 * Everything else is marketing or sequence mail, which unsubscribes and sending pauses stop.
 */
export const isServiceMail = (send: { readonly emailType: EmailType; readonly sendKind: SendKind | null }): boolean =>
  send.emailType === "transactional" && send.sendKind !== "marketing";

export const SEND_STATUSES = ["pending", "sent", "delivered", "bounced", "complained", "failed", "suppressed"] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

export { MAILBOX_PROVIDERS, type MailboxProvider } from "../metrics/mailbox-provider.js";

export const BOUNCE_TYPES = ["Permanent", "Transient", "Undetermined"] as const;
export type BounceType = (typeof BOUNCE_TYPES)[number];

/** A file attached to a message; only inline base64 content is supported. */
export interface Attachment {
  readonly filename: string;
  readonly contentBase64: string;
  readonly contentType?: string | undefined;
  readonly contentId?: string | undefined;
}

export interface MailAddress {
  readonly email: string;
  readonly name?: string | null | undefined;
}

/** What the send job needs beyond the columns: kept in the `payload` document, never secrets. */
export interface SendPayload {
  readonly variables?: Readonly<Record<string, unknown>> | undefined;
  readonly attachments?: readonly Attachment[] | undefined;
  /** The https page that unsubscribes the recipient (List-Unsubscribe, RFC 8058). */
  readonly unsubscribeUrl?: string | undefined;
  /** A cc or bcc recipient's own send: the primary (first `to`) send it copies. */
  readonly copyOf?: { readonly emailSendId: string; readonly role: "cc" | "bcc" } | undefined;
}

export interface EmailSend {
  readonly id: string;
  readonly companyId: string;
  readonly subscriberId: string | null;
  readonly recipientEmail: string;
  readonly emailType: EmailType;
  readonly sendKind: SendKind | null;
  readonly transactionalEmailId: string | null;
  readonly templateId: string | null;
  readonly campaignId: string | null;
  readonly automationId: string | null;
  readonly automationNodeId: string | null;
  readonly subject: string;
  readonly sender: MailAddress;
  readonly replyTo: string | null;
  readonly html: string | null;
  readonly text: string | null;
  readonly status: SendStatus;
  readonly suppressionReason: string | null;
  readonly failureReason: string | null;
  readonly messageId: string | null;
  readonly mailboxProvider: MailboxProvider;
  readonly isTest: boolean;
  readonly openTracking: boolean;
  readonly clickTracking: boolean;
  readonly payload: SendPayload;
  readonly sentAt: Date | null;
  readonly deliveredAt: Date | null;
  readonly bounceType: string | null;
  readonly bounceSubType: string | null;
  readonly bouncedAt: Date | null;
  readonly complainedAt: Date | null;
  readonly suppressedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A send's rendered HTML and text. */
export type SendBodies = Pick<EmailSend, "html" | "text">;
/** A send as a delivery job reads it: the bodies are read one at a time, as each is handed over. */
export type EmailSendWithoutBodies = Omit<EmailSend, "html" | "text">;

/** What a provider tells us happened to a message after we handed it over. */
export const DELIVERY_EVENT_TYPES = ["delivered", "bounced", "complained", "delayed"] as const;
export type DeliveryEventType = (typeof DELIVERY_EVENT_TYPES)[number];

export interface DeliveryEvent {
  readonly type: DeliveryEventType;
  /** The provider's own ID of the event: a redelivered webhook is stored once. */
  readonly providerEventId: string;
  readonly occurredAt: Date;
  readonly bounceType?: BounceType | undefined;
  readonly bounceSubType?: string | undefined;
  readonly details?: Readonly<Record<string, unknown>> | undefined;
}

/** The email_events type each delivery event is stored under. */
export const EVENT_TYPE_OF: Record<DeliveryEventType, "delivery" | "bounce" | "complaint" | "delivery_delay"> = {
  delivered: "delivery",
  bounced: "bounce",
  complained: "complaint",
  delayed: "delivery_delay",
};

/** The domain part of an address, lower-cased. */
export const domainOf = (email: string): string => email.slice(email.lastIndexOf("@") + 1).toLowerCase();

/** The Message-ID we give a send: unique, ours, and found again in provider events. */
export const messageIdFor = (send: Pick<EmailSend, "id" | "sender">): string => `<${send.id}@${domainOf(send.sender.email)}>`;
