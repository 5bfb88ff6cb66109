import type { RateBudget } from "../access/rate-budgets.js";
import { token } from "../shared/token.js";

/** The outcome of spending units of a budget: the window closest to running out speaks for all. */
export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** The length of that window. */
  readonly windowSeconds: number;
  readonly remaining: number;
  /** Milliseconds until that window starts afresh. */
  readonly resetMs: number;
  /** On refusal, how long until the units would be accepted. */
  readonly retryAfterMs: number;
  /** Every window of the budget, as `RateLimit-Policy` states them. */
  readonly policy: string;
}

/**
 * Counts requests per subject (an API key, a company, a client address) in every window of a
 * budget, shared by all servers. A refused request spends nothing: retrying too eagerly never
 * pushes the end of a window further away.
 */
export interface RateLimiter {
  consume(budget: RateBudget, subject: string, units?: number): Promise<RateDecision>;
  /** The budget's state for the subject, spending nothing (for the headers of a request refused elsewhere). */
  peek(budget: RateBudget, subject: string): Promise<RateDecision>;
  /** Gives back units an allowed request did not use after all (another limit refused it). */
  refund(budget: RateBudget, subject: string, units?: number): Promise<void>;
  /**
   * A refusal of the budget for the subject that this process met and whose window has not ended:
   * asking again now would be refused too. Answered without the store, so it is cheap to ask first.
   */
  refusal(budget: RateBudget, subject: string): RateDecision | undefined;
  close(): Promise<void>;
}
export const RateLimiter = token<RateLimiter>("lifecycle.RateLimiter");
