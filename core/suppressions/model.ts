/** Why an address is never sent to again (until someone removes the suppression). */
export const SUPPRESSION_REASONS = ["hard_bounce", "complaint", "unsubscribe", "manual"] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/**
 * The suppressions a company may lift itself: a bounce block (the mailbox may work again) and its
 * own manual blocks. A complaint or an unsubscribe is the recipient's decision and stays.
 */
export const REMOVABLE_REASONS: readonly SuppressionReason[] = ["hard_bounce", "manual"];
export const isRemovable = (reason: SuppressionReason): boolean => REMOVABLE_REASONS.includes(reason);

export interface Suppression {
  readonly id: string;
  readonly companyId: string;
  /** Lower-cased. */
  readonly email: string;
  readonly reason: SuppressionReason;
  /** The send whose bounce, complaint or unsubscribe caused it, when there is one. */
  readonly emailSendId: string | null;
  readonly createdAt: Date;
}
