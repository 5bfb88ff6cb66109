import { token } from "../shared/token.js";

/**
 * How long the platform keeps what piles up as it runs, in days; 0 keeps it forever.
 * Idempotency records are not here: each carries its own expiry (24 hours) and goes then.
 */
export interface RetentionPolicy {
  /** Jobs that finished: nothing reads them once done; a week leaves time to look into one. */
  readonly completedJobsDays: number;
  /** Jobs that ran out of attempts: kept longer, they are what an operator investigates. */
  readonly deadJobsDays: number;
  /**
   * The rendered HTML and text of sent emails (the send, its status, timestamps and metrics
   * stay). The email-sends search looks back 14 days; a month leaves margin for support.
   */
  readonly emailBodiesDays: number;
  /**
   * Delivery and engagement events (sends, deliveries, bounces, opens, clicks, ...). Metrics
   * count from the sends' own columns; the events feed the clicked links, the send timelines
   * and exports (30 days back at most). Over a year keeps a year-on-year comparison whole.
   */
  readonly deliveryEventsDays: number;
}

export const RetentionPolicy = token<RetentionPolicy>("lifecycle.RetentionPolicy");

export const DEFAULT_RETENTION: RetentionPolicy = {
  completedJobsDays: 7,
  deadJobsDays: 30,
  emailBodiesDays: 30,
  deliveryEventsDays: 400,
};

const DAY_MS = 86_400_000;

/** The time before which records of a kind go, or null when they are kept forever. */
export const retentionCutoff = (days: number, now: Date): Date | null => (days > 0 ? new Date(now.getTime() - days * DAY_MS) : null);
