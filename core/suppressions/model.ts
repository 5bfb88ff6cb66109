/** Why an address is never sent to again (until someone removes the suppression). */
export const SUPPRESSION_REASONS = ["hard_bounce", "complaint", "unsubscribe", "manual"] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

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
