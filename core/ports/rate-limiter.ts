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
}

/** Counts requests per subject (an API key) in every window of a budget, shared by all servers. */
export interface RateLimiter {
  consume(budget: RateBudget, subject: string, units?: number): Promise<RateDecision>;
  close(): Promise<void>;
}
export const RateLimiter = token<RateLimiter>("lifecycle.RateLimiter");
