import { token } from "../shared/token.js";

/**
 * Removes expired records a batch at a time; each method resolves to how many it removed or
 * blanked, and returns between batches so other work gets the database.
 */
export interface RetentionStore {
  deleteCompletedJobs(completedBefore: Date): Promise<number>;
  deleteDeadJobs(diedBefore: Date): Promise<number>;
  deleteExpiredIdempotencyKeys(now: Date): Promise<number>;
  /** Blanks the rendered HTML and text of sends made before the time (never of pending ones). */
  blankEmailBodies(createdBefore: Date): Promise<number>;
  deleteDeliveryEvents(occurredBefore: Date): Promise<number>;
}
export const RetentionStore = token<RetentionStore>("lifecycle.RetentionStore");
