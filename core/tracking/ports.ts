import type { Engagement, TrackedSend } from "./model.js";
import type { MachineReason, RecordedClick } from "./machine-engagement.js";
import { token } from "../shared/token.js";

/** Opens, clicks and unsubscribes recorded on email sends and their events. */
export interface EngagementRepository {
  /**
   * The send a tracking token names. Tokens carry only the send's ID, which is unique across
   * companies: the company comes from the send, and every later call names it.
   */
  findSend(sendId: string): Promise<TrackedSend | null>;
  /** Stores the event and sets the send's first-engagement timestamps it marks (the earliest wins). */
  recordEngagement(engagement: Engagement): Promise<void>;
  /** The send's clicks from `since` on, machine ones included. */
  clicksSince(companyId: string, sendId: string, since: Date): Promise<RecordedClick[]>;
  /**
   * Marks the send's person clicks from `since` on as machine engagement with `reason`, and
   * recomputes the send's first human open and click from the events left.
   */
  reclassifyClicks(companyId: string, sendId: string, since: Date, reason: MachineReason): Promise<void>;
  /** Sets unsubscribed_at and stores an `unsubscribe` event, once; false when already unsubscribed. */
  markUnsubscribed(companyId: string, sendId: string, eventId: string, at: Date): Promise<boolean>;
}
export const EngagementRepository = token<EngagementRepository>("lifecycle.EngagementRepository");
