import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view, viewWithOptional } from "../shared/view-fields.js";
import type { EmailSendEventRecord, EmailSendRecord, EmailSendSummary } from "./email-send-queries.js";
import { EMAIL_SEND_STATUSES, emailSendStatus } from "./status.js";

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

const EmailSendStatus = oneOf(EMAIL_SEND_STATUSES, "EmailSendStatus");

/**
 * When the send was held back because the company's sending is paused or suspended (GET
 * /sending-status): it stays `pending` and goes out after the resume. Null when it is not held.
 */
const HeldAt = NullableTimestamp;
const heldAt = (send: Pick<EmailSendSummary, "status" | "heldAt">): string | null => (send.status === "pending" ? iso(send.heldAt) : null);

/** A row of the email-sends search as the API shows it. */
export const EmailSendSummaryView = view(
  {
    id: Id,
    status: EmailSendStatus,
    recipientEmail: t.string,
    subject: t.string,
    subscriberId: NullableString,
    automationNodeId: NullableString,
    /** A/B tests do not exist yet: no send belongs to a variant. */
    abTestVariantId: t.null,
    sentAt: NullableTimestamp,
    deliveredAt: NullableTimestamp,
    openedAt: NullableTimestamp,
    clickedAt: NullableTimestamp,
    createdAt: Timestamp,
    emailType: t.string,
    transactionalEmailId: NullableString,
    heldAt: HeldAt,
  },
  "EmailSendSummary",
);
export type EmailSendSummaryView = t.TypeOf<typeof EmailSendSummaryView>;

export const emailSendSummaryView = (send: EmailSendSummary): EmailSendSummaryView => ({
  id: send.id,
  status: emailSendStatus(send),
  recipientEmail: send.recipientEmail,
  subject: send.subject,
  subscriberId: send.subscriberId,
  automationNodeId: send.automationNodeId,
  abTestVariantId: null,
  sentAt: iso(send.sentAt),
  deliveredAt: iso(send.deliveredAt),
  openedAt: iso(send.openedAt),
  clickedAt: iso(send.clickedAt),
  createdAt: send.createdAt.toISOString(),
  emailType: send.emailType,
  transactionalEmailId: send.transactionalEmailId,
  heldAt: heldAt(send),
});

/**
 * One send in full. `type` is the kind of mail as the law sees it: `transactional` or
 * `marketing` (campaign and sequence sends are marketing). The body is left out once expired.
 */
export const EmailSendView = viewWithOptional(
  {
    id: Id,
    companyId: Id,
    type: oneOf(["transactional", "marketing"], "MailKind"),
    emailType: t.string,
    recipientEmail: t.string,
    subject: t.string,
    senderEmail: t.string,
    senderName: NullableString,
    status: EmailSendStatus,
    suppressionReason: NullableString,
    replyTo: NullableString,
    copiedFrom: t.union([view({ emailSendId: Id, role: oneOf(["cc", "bcc"], "CopyRole") }), t.null]),
    failureReason: NullableString,
    sentAt: NullableTimestamp,
    deliveredAt: NullableTimestamp,
    suppressedAt: NullableTimestamp,
    heldAt: HeldAt,
    createdAt: Timestamp,
  },
  { emailBody: t.string },
  "EmailSend",
);
export type EmailSendView = t.TypeOf<typeof EmailSendView>;

export const emailSendView = (send: EmailSendRecord): EmailSendView => ({
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
  heldAt: heldAt(send),
  createdAt: send.createdAt.toISOString(),
});

/** An event of a send; opens and clicks say whether a machine (scanner, preview) made them. */
export const EmailSendEventView = viewWithOptional(
  { id: Id, emailSendId: Id, eventType: t.string, eventTime: Timestamp, deliveryPolicy: t.null },
  { machine: t.boolean },
  "EmailSendEvent",
);
export type EmailSendEventView = t.TypeOf<typeof EmailSendEventView>;

const ENGAGEMENT_EVENTS = new Set(["open", "click"]);

export const emailSendEventView = (event: EmailSendEventRecord): EmailSendEventView => ({
  id: event.id,
  emailSendId: event.emailSendId,
  eventType: event.eventType,
  eventTime: event.eventTime.toISOString(),
  deliveryPolicy: null,
  ...(ENGAGEMENT_EVENTS.has(event.eventType) ? { machine: event.machine } : {}),
});
