import type { EmailSendEventRecord, EmailSendRecord, EmailSendSummary } from "./email-send-search.js";
import { emailSendStatus } from "./status.js";

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** A row of the email-sends search as the API shows it. */
export const emailSendSummaryView = (send: EmailSendSummary) => ({
  id: send.id,
  status: emailSendStatus(send),
  recipientEmail: send.recipientEmail,
  subject: send.subject,
  subscriberId: send.subscriberId,
  automationNodeId: send.automationNodeId,
  /** A/B tests do not exist yet: no send belongs to a variant. */
  abTestVariantId: null,
  sentAt: iso(send.sentAt),
  deliveredAt: iso(send.deliveredAt),
  openedAt: iso(send.openedAt),
  clickedAt: iso(send.clickedAt),
  createdAt: send.createdAt.toISOString(),
  emailType: send.emailType,
  transactionalEmailId: send.transactionalEmailId,
});
export type EmailSendSummaryView = ReturnType<typeof emailSendSummaryView>;

/**
 * One send in full. `type` is the kind of mail as the law sees it: `transactional` or
 * `marketing` (campaign and sequence sends are marketing). The body is left out once expired.
 */
export const emailSendView = (send: EmailSendRecord) => ({
  id: send.id,
  companyId: send.companyId,
  type: send.emailType === "transactional" ? (send.sendKind ?? "transactional") : "marketing",
  emailType: send.emailType,
  recipientEmail: send.recipientEmail,
  subject: send.subject,
  senderEmail: send.senderEmail,
  senderName: send.senderName,
  status: emailSendStatus(send),
  suppressionReason: send.suppressionReason,
  ...(send.html === null ? {} : { emailBody: send.html }),
  replyTo: send.replyTo,
  copiedFrom: send.copyOf ? { emailSendId: send.copyOf.emailSendId, role: send.copyOf.role } : null,
  failureReason: send.failureReason,
  sentAt: iso(send.sentAt),
  deliveredAt: iso(send.deliveredAt),
  suppressedAt: iso(send.suppressedAt),
  createdAt: send.createdAt.toISOString(),
});
export type EmailSendView = ReturnType<typeof emailSendView>;

const ENGAGEMENT_EVENTS = new Set(["open", "click"]);

/** An event of a send; opens and clicks say whether a machine (scanner, preview) made them. */
export const emailSendEventView = (event: EmailSendEventRecord) => ({
  id: event.id,
  emailSendId: event.emailSendId,
  eventType: event.eventType,
  eventTime: event.eventTime.toISOString(),
  deliveryPolicy: null,
  ...(ENGAGEMENT_EVENTS.has(event.eventType) ? { machine: event.machine } : {}),
});
export type EmailSendEventView = ReturnType<typeof emailSendEventView>;
