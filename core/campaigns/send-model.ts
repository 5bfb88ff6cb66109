/**
 * A campaign's send as the engine keeps it: the audience frozen when the send started, how much
 * of it was handed to the email pipeline, who was left out and why, and the pacing of batches.
 */

/** Why a contact of the audience got no message. */
export const EXCLUSION_REASONS = ["unsubscribed", "bounced", "suppressed", "unconfirmed", "duplicate", "deleted"] as const;
export type ExclusionReason = (typeof EXCLUSION_REASONS)[number];
export type ExclusionCounts = Readonly<Record<ExclusionReason, number>>;

export const NO_EXCLUSIONS: ExclusionCounts = { unsubscribed: 0, bounced: 0, suppressed: 0, unconfirmed: 0, duplicate: 0, deleted: 0 };

export const addExclusions = (a: ExclusionCounts, b: Partial<ExclusionCounts>): ExclusionCounts =>
  Object.fromEntries(EXCLUSION_REASONS.map((reason) => [reason, a[reason] + (b[reason] ?? 0)])) as Record<ExclusionReason, number>;

export const totalExcluded = (counts: ExclusionCounts): number => EXCLUSION_REASONS.reduce((sum, reason) => sum + counts[reason], 0);

export interface CampaignSendState {
  /** When the audience was frozen. */
  readonly startedAt: Date;
  /** Contacts frozen into the send (after the exclusions at start). */
  readonly recipients: number;
  /** Recipients handed to the email pipeline so far (one send each). */
  readonly queued: number;
  /** Recipients taken by batches so far: queued or skipped. */
  readonly processed: number;
  /** Contacts left out at the start, and recipients skipped at their batch, by reason. */
  readonly excluded: ExclusionCounts;
  /** The place of the last recipient batched (batches walk the recipients in order); 0 before the first. */
  readonly position: number;
  /** The number of the next batch. */
  readonly batch: number;
  readonly batchSize: number;
  /** With spreadOverHours: when the last batch is due. */
  readonly windowEndsAt: Date | null;
}

const MINUTE_MS = 60_000;

/**
 * How many recipients each batch takes (at most `batchSize`). A spread sends at most one batch a
 * minute, each as small as it takes to fill the window evenly; a throttle keeps a batch within
 * one minute's rate.
 */
export function batchSizeFor(
  recipients: number,
  pacing: { readonly batchSize: number; readonly spreadOverHours: number | null; readonly perMinute: number | null },
): number {
  let size = pacing.batchSize;
  if (pacing.spreadOverHours !== null) size = Math.min(size, Math.max(1, Math.ceil(recipients / (pacing.spreadOverHours * 60))));
  if (pacing.perMinute !== null) size = Math.min(size, Math.max(1, pacing.perMinute));
  return size;
}

/**
 * When the batch after this one is due by the spread: the batches left share what is left of the
 * window evenly (the last one at its end); without a spread, at once (throttles may delay it).
 */
export function nextBatchAt(input: { readonly now: Date; readonly windowEndsAt: Date | null; readonly batchesLeft: number }): Date {
  const now = input.now.getTime();
  if (input.windowEndsAt === null || input.batchesLeft <= 0) return input.now;
  return new Date(Math.round(now + Math.max(0, input.windowEndsAt.getTime() - now) / input.batchesLeft));
}

/** When a throttled scope that could send from `freeFrom` may send again after `messages` sent now. */
export const afterThrottle = (input: { readonly now: Date; readonly freeFrom: Date | null; readonly messages: number; readonly perMinute: number }): Date =>
  new Date(Math.max(input.now.getTime(), input.freeFrom?.getTime() ?? 0) + Math.ceil((input.messages / input.perMinute) * MINUTE_MS));

/**
 * Why a frozen recipient gets nothing at its batch, or null when it gets the message: deleted
 * since the send started, unsubscribed or bounced (as a contact or as a suppression), otherwise
 * suppressed, or waiting to confirm a double opt-in.
 */
export function exclusionAtBatch(input: {
  readonly contactStatus: "active" | "unsubscribed" | "bounced" | null;
  readonly suppression: "hard_bounce" | "complaint" | "unsubscribe" | "manual" | null;
  readonly unconfirmed: boolean;
}): ExclusionReason | null {
  if (input.contactStatus === null) return "deleted";
  if (input.contactStatus === "unsubscribed" || input.suppression === "unsubscribe") return "unsubscribed";
  if (input.contactStatus === "bounced" || input.suppression === "hard_bounce") return "bounced";
  if (input.suppression !== null) return "suppressed";
  return input.unconfirmed ? "unconfirmed" : null;
}
