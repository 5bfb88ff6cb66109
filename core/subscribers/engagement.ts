import type { ActivityPosition } from "./activity-cursor.js";
import type * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { token } from "../shared/token.js";

/** What the contact did with the email sent to them (test sends left out). */
export interface ContactEmailStats {
  readonly sent: number;
  readonly delivered: number;
  readonly opened: number;
  readonly clicked: number;
  readonly bounced: number;
  readonly complained: number;
  readonly unsubscribed: number;
  readonly lastSentAt: Date | null;
  readonly lastOpenedAt: Date | null;
  readonly lastClickedAt: Date | null;
}

/** The stored kinds of email events (the delivery pipeline's vocabulary). */
export const StoredEmailEventType = oneOf(
  ["send", "delivery", "bounce", "complaint", "open", "click", "unsubscribe", "delivery_delay", "transport_failure", "reply"],
  "StoredEmailEventType",
);
export type StoredEmailEventType = t.TypeOf<typeof StoredEmailEventType>;

/** One event of an email sent to the contact, as the contact's activity shows it. */
export interface ContactEmailEvent {
  readonly id: string;
  readonly type: StoredEmailEventType;
  readonly occurredAt: Date;
  readonly emailSendId: string;
  readonly campaignId: string | null;
  readonly subject: string;
  readonly url: string | null;
  readonly bounceType: string | null;
  /** Opens and clicks by scanners, previews and prefetches. */
  readonly machine: boolean;
  readonly machineReason: string | null;
}

/** Reads of a contact's email engagement, each one indexed query over the contact's sends. */
export interface ContactEngagementQueries {
  /** Counts of the contact's sends; opens and clicks by machines count only when asked. */
  emailStats(companyId: string, subscriberId: string, options: { readonly includeMachineEngagement: boolean }): Promise<ContactEmailStats>;
  /** The latest events of the email sent to the contact, newest first (then by ID); with `before`, only those before it. */
  recentEmailEvents(companyId: string, subscriberId: string, limit: number, before: ActivityPosition | null): Promise<ContactEmailEvent[]>;
}
export const ContactEngagementQueries = token<ContactEngagementQueries>("lifecycle.ContactEngagementQueries");
