import type { EngagementKind, MachineReason } from "./machine-engagement.js";

/** What tracking needs of an email send. */
export interface TrackedSend {
  readonly id: string;
  readonly companyId: string;
  readonly subscriberId: string | null;
  /** Lower-cased, as sent. */
  readonly recipientEmail: string;
  readonly openTracking: boolean;
  readonly clickTracking: boolean;
  readonly sentAt: Date | null;
  readonly deliveredAt: Date | null;
  readonly unsubscribedAt: Date | null;
  /** The sequence that sent it (sequence emails only). */
  readonly automationId: string | null;
}

/** Which of the send's "first ..." timestamps an engagement may set (each is set once). */
export interface FirstMarks {
  readonly opened: boolean;
  readonly humanOpened: boolean;
  readonly clicked: boolean;
  readonly humanClicked: boolean;
}

/** One open or click, stored as an email_events row. */
export interface Engagement {
  readonly id: string;
  readonly companyId: string;
  readonly sendId: string;
  readonly kind: EngagementKind;
  readonly at: Date;
  /** The destination, for clicks. */
  readonly url: string | null;
  readonly userAgent: string | null;
  readonly ip: string | null;
  readonly machine: boolean;
  readonly machineReason: MachineReason | null;
  readonly marks: FirstMarks;
}

/**
 * An open sets first_opened_at, and first_human_opened_at when a person made it. A click sets
 * first_clicked_at (and first_human_clicked_at); a person's click also proves the message was
 * opened (its images may have been blocked), so it counts as an open when opens are tracked.
 */
export function firstMarks(kind: EngagementKind, machine: boolean, openTracking: boolean): FirstMarks {
  if (kind === "open") return { opened: true, humanOpened: !machine, clicked: false, humanClicked: false };
  const opens = !machine && openTracking;
  return { opened: opens, humanOpened: opens, clicked: true, humanClicked: !machine };
}

/** Storage columns length-limited by the schema. */
export const USER_AGENT_MAX = 512;
export const IP_MAX = 64;
