import type { PauseReasonKind, SendingStatus } from "./model.js";

/**
 * The rates are measured over the company's latest sends handed to the mail server (test sends
 * aside) since the last reset: recent enough that a cleaned list shows at once, long enough that
 * one bad day of a large sender is not drowned by a month of good ones.
 */
export const RECENT_SENDS = 5_000;

/**
 * Hard bounces above 5% pause marketing mail. Amazon SES reviews an account at 5% and mailbox
 * providers read that much mail to dead addresses as a bought or stale list; below 100 sends a
 * handful of typos would trip it, so the rate waits for 100.
 */
export const HARD_BOUNCE_PAUSE_PERCENT = 5;
export const HARD_BOUNCE_MINIMUM_SENDS = 100;

/**
 * Spam complaints above 0.1% pause marketing mail: Gmail's and Yahoo's bulk-sender rules ask for
 * less than 0.1% and start refusing mail at 0.3%, and SES reviews at 0.1%. A complaint rate
 * needs volume to mean anything (one complaint in 200 sends is 0.5%), hence 1,000 sends.
 */
export const COMPLAINT_PAUSE_PERCENT = 0.1;
/** Above 0.5% (where SES stops an account) even service mail is held: the sender is hurting every recipient's provider. */
export const COMPLAINT_SUSPEND_PERCENT = 0.5;
export const COMPLAINT_MINIMUM_SENDS = 1_000;

/** The latest sends a bounce rate covers, and how many of them bounced. */
export interface BounceWindow {
  readonly sends: number;
  readonly hardBounces: number;
  readonly softBounces: number;
}

/** The latest sends a complaint rate covers, and how many of them drew a complaint. */
export interface ComplaintWindow {
  readonly sends: number;
  readonly complaints: number;
}

/** What a window calls for: a pause (or suspension) with its reason, or nothing. */
export interface Verdict {
  readonly status: Exclude<SendingStatus, "active">;
  readonly kind: PauseReasonKind;
  readonly reason: string;
}

/** Exact comparison (no rounding): `count` of `sends` is above `percent`. */
const above = (count: number, sends: number, percent: number): boolean => count * 100 > percent * sends;

const percentOf = (count: number, sends: number): string => `${((count * 100) / sends).toFixed(2)}%`;

export function bounceVerdict(window: BounceWindow): Verdict | null {
  const { sends, hardBounces } = window;
  if (sends < HARD_BOUNCE_MINIMUM_SENDS || !above(hardBounces, sends, HARD_BOUNCE_PAUSE_PERCENT)) return null;
  return {
    status: "paused",
    kind: "high_hard_bounce_rate",
    reason: `${hardBounces} of your latest ${sends} sends hard-bounced (${percentOf(hardBounces, sends)}, above the ${HARD_BOUNCE_PAUSE_PERCENT}% limit)`,
  };
}

export function complaintVerdict(window: ComplaintWindow): Verdict | null {
  const { sends, complaints } = window;
  if (sends < COMPLAINT_MINIMUM_SENDS || !above(complaints, sends, COMPLAINT_PAUSE_PERCENT)) return null;
  const suspend = above(complaints, sends, COMPLAINT_SUSPEND_PERCENT);
  const limit = suspend ? COMPLAINT_SUSPEND_PERCENT : COMPLAINT_PAUSE_PERCENT;
  return {
    status: suspend ? "suspended" : "paused",
    kind: "high_complaint_rate",
    reason: `${complaints} of your latest ${sends} sends were reported as spam (${percentOf(complaints, sends)}, above the ${limit}% limit)`,
  };
}
