import type { SendStatus } from "../delivery/model.js";

/**
 * The status an email send shows: the stored delivery status, advanced to `opened` or `clicked`
 * once the recipient engaged. A send that bounced, complained, failed, was suppressed or is
 * still pending keeps that status even when it was opened.
 */
export const EMAIL_SEND_STATUSES = ["pending", "sent", "delivered", "opened", "clicked", "bounced", "complained", "failed", "suppressed"] as const;
export type EmailSendStatus = (typeof EMAIL_SEND_STATUSES)[number];

/** Stored statuses that engagement advances. */
export const ENGAGEABLE_STATUSES: readonly SendStatus[] = ["sent", "delivered"];

export interface EngagementState {
  readonly status: SendStatus;
  readonly openedAt: Date | null;
  readonly clickedAt: Date | null;
}

export function emailSendStatus(send: EngagementState): EmailSendStatus {
  if (!ENGAGEABLE_STATUSES.includes(send.status)) return send.status;
  if (send.clickedAt) return "clicked";
  if (send.openedAt) return "opened";
  return send.status;
}

/** The shown statuses a status filter matches: `opened` includes sends that were also clicked. */
export const statusesMatching = (filter: EmailSendStatus): readonly EmailSendStatus[] => (filter === "opened" ? ["opened", "clicked"] : [filter]);
