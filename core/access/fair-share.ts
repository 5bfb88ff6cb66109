import type { OperatorBudget, RateWindow } from "./rate-budgets.js";

/**
 * What one company may take of a server, whatever number of keys it mints, and how often one
 * client address may fail to authenticate. The operator chooses these; the spec's per-key
 * budgets apply unchanged beneath them.
 */
export interface FairShare {
  /** Requests of one company being worked on at once, per server process. */
  readonly companyMaxInFlight: number;
  /** Requests per minute of one company across all of its keys, on all servers. */
  readonly companyPerMinute: number;
  /** Failed authentications per minute from one client address before it must wait. */
  readonly authFailuresPerMinute: number;
}

export const DEFAULT_FAIR_SHARE: FairShare = {
  // One key may send its whole second (20, spec) at once; a company gets a little more than that.
  companyMaxInFlight: 24,
  // One key's every budget at once (300 + 1,000 + 300 a minute) fits beneath the ceiling, so a
  // company with a single key never meets it; ten keys' worth of standard requests does.
  companyPerMinute: 3_000,
  authFailuresPerMinute: 30,
};

/** The windows of the operator's budgets, for the rate limiter. */
export const operatorBudgets = (share: FairShare): Record<OperatorBudget, readonly RateWindow[]> => ({
  company: [{ points: share.companyPerMinute, seconds: 60 }],
  authFailures: [{ points: share.authFailuresPerMinute, seconds: 60 }],
});
