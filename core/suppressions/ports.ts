import type { Suppression, SuppressionReason } from "./model.js";
import { token } from "../shared/token.js";

export interface SuppressionRepository {
  /** Adds the address unless it is already suppressed (the first reason stays); returns the suppression in force. */
  add(input: { companyId: string; email: string; reason: SuppressionReason; emailSendId: string | null; at: Date }): Promise<Suppression>;
  find(companyId: string, email: string): Promise<Suppression | null>;
  /** The suppressions in force among `emails` (a batch of recipients). */
  findMany(companyId: string, emails: readonly string[]): Promise<Suppression[]>;
  /** Removes the address's suppression if its reason is one of `reasons` (a check and a delete in one statement); false when none was. */
  remove(companyId: string, email: string, reasons: readonly SuppressionReason[]): Promise<boolean>;
}
export const SuppressionRepository = token<SuppressionRepository>("lifecycle.SuppressionRepository");
