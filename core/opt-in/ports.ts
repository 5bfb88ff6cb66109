import { token } from "../shared/token.js";
import type { OptIn } from "./model.js";

/** Contacts' double opt-ins. Every method names the company. */
export interface OptInRepository {
  /** Starts the contact's opt-in, unconfirmed; nothing when it has one already. */
  start(companyId: string, subscriberId: string, at: Date): Promise<void>;
  find(companyId: string, subscriberId: string): Promise<OptIn | null>;
  /**
   * Takes the right to email the unconfirmed contact now: true (and last_email_at = at) when no
   * confirmation email went since `since`. One statement, so concurrent requests send once.
   */
  claimEmail(companyId: string, subscriberId: string, at: Date, since: Date): Promise<boolean>;
  /** Gives the claim back when the email could not be queued after all. */
  releaseEmail(companyId: string, subscriberId: string, previous: Date | null): Promise<void>;
  /** Confirms the contact; true only for the call that confirmed it. */
  confirm(companyId: string, subscriberId: string, at: Date): Promise<boolean>;
  /** Which of these addresses belong to contacts of the company that have not confirmed yet. */
  unconfirmedAmong(companyId: string, emails: readonly string[]): Promise<Set<string>>;
}
export const OptInRepository = token<OptInRepository>("lifecycle.OptInRepository");
