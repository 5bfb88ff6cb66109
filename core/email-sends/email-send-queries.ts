import type { EmailType, SendStatus } from "../delivery/model.js";
import type { EmailSendStatus } from "./status.js";
import { token } from "../shared/token.js";

export const EMAIL_SEND_SORT_FIELDS = ["recipientEmail", "subject", "status", "eventAt", "sentAt", "createdAt"] as const;
export type EmailSendSortField = (typeof EMAIL_SEND_SORT_FIELDS)[number];

export const SEARCHABLE_BOUNCE_TYPES = ["Permanent", "Transient"] as const;
export type SearchableBounceType = (typeof SEARCHABLE_BOUNCE_TYPES)[number];

export interface EmailSendCriteria {
  /** Part of the subject or of the recipient's address, case-insensitive. */
  readonly search?: string | undefined;
  readonly subject?: string | undefined;
  readonly recipient?: string | undefined;
  /** Shown statuses (see status.ts), any of which matches. */
  readonly statuses?: readonly EmailSendStatus[] | undefined;
  readonly emailType?: EmailType | undefined;
  readonly bounceType?: SearchableBounceType | undefined;
  readonly campaignId?: string | undefined;
  readonly transactionalEmailId?: string | undefined;
  readonly automationId?: string | undefined;
  readonly automationNodeId?: string | undefined;
  /** true: only sends held while the company's sending is paused; false: only sends not held. */
  readonly held?: boolean | undefined;
  /** Sends created at or after this instant. */
  readonly createdSince: Date;
  readonly page: number;
  readonly limit: number;
  readonly sortField: EmailSendSortField;
  readonly sortOrder: "asc" | "desc";
}

/** One row of the search. */
export interface EmailSendSummary {
  readonly id: string;
  readonly status: SendStatus;
  readonly recipientEmail: string;
  readonly subject: string;
  readonly subscriberId: string | null;
  readonly emailType: EmailType;
  readonly transactionalEmailId: string | null;
  readonly automationNodeId: string | null;
  readonly sentAt: Date | null;
  readonly deliveredAt: Date | null;
  /** First open and click by anyone (what the status shows). */
  readonly openedAt: Date | null;
  readonly clickedAt: Date | null;
  readonly createdAt: Date;
  /** When delivery held the send back because the company's sending is paused; null once released. */
  readonly heldAt: Date | null;
}

/** One send with everything its detail shows. */
export interface EmailSendRecord extends EmailSendSummary {
  readonly companyId: string;
  /** For transactional sends: `transactional` or `marketing`; null for campaign and sequence sends. */
  readonly sendKind: "transactional" | "marketing" | null;
  readonly senderEmail: string;
  readonly senderName: string | null;
  readonly replyTo: string | null;
  /** The stored HTML; null once expired from retention. */
  readonly html: string | null;
  readonly suppressionReason: string | null;
  readonly failureReason: string | null;
  readonly suppressedAt: Date | null;
  /** A cc or bcc recipient's own send: the primary send it copies. */
  readonly copyOf: { readonly emailSendId: string; readonly role: "cc" | "bcc" } | null;
}

export interface EmailSendEventRecord {
  readonly id: string;
  readonly emailSendId: string;
  /** send, delivery, bounce, complaint, open, click, unsubscribe, delivery_delay, transport_failure, reply. */
  readonly eventType: string;
  readonly eventTime: Date;
  /** Scanner, preview or prefetch engagement (opens and clicks). */
  readonly machine: boolean;
}

/** Reads over `email_sends` and `email_events` (the write side is delivery's EmailSendRepository). */
export interface EmailSendQueries {
  search(companyId: string, criteria: EmailSendCriteria): Promise<{ readonly emailSends: EmailSendSummary[]; readonly total: number }>;
  find(companyId: string, emailSendId: string): Promise<EmailSendRecord | null>;
  /** The send's events, oldest first. */
  events(companyId: string, emailSendId: string): Promise<EmailSendEventRecord[]>;
}
export const EmailSendQueries = token<EmailSendQueries>("lifecycle.EmailSendQueries");
