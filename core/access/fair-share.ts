import { WEB_TRACKING_ADDRESS_WINDOWS, WEB_TRACKING_KEY_WINDOWS } from "../web-tracking/abuse-limits.js";
import type { OperatorBudget, RateWindow } from "./rate-budgets.js";

/**
 * What one company may take of a server, whatever number of keys it mints, and how often one
 * client address may fail to authenticate. The operator chooses these; the spec's per-key
 * budgets apply unchanged beneath them.
 */
export interface FairShare {
  /** Requests of one company in flight at once (worked on or waiting their turn), per server process. */
  readonly companyMaxInFlight: number;
  /** Requests worked on at once per server process, all companies together; the others wait, companies taking turns. */
  readonly serverConcurrency: number;
  /** Requests per minute of one company across all of its keys, on all servers. */
  readonly companyPerMinute: number;
  /** Failed authentications per minute from one client address before it must wait. */
  readonly authFailuresPerMinute: number;
}

export const DEFAULT_FAIR_SHARE: FairShare = {
  // One key may send its whole second (20, spec) at once; a company gets a little more than that.
  companyMaxInFlight: 24,
  // Four at work keep the database (SQLite's one connection, or Postgres's pool) busy while others
  // are serialized; more would only queue inside the pool, where one company's request waits
  // behind all of another's (storm test: the other company's p95 rises from 0.3-0.9 s to 1.4-1.6 s at 8).
  serverConcurrency: 4,
  // One key's every budget at once (300 + 1,000 + 300 a minute) fits beneath the ceiling, so a
  // company with a single key never meets it; ten keys' worth of standard requests does.
  companyPerMinute: 3_000,
  authFailuresPerMinute: 30,
};

/** The windows of the operator's budgets, for the rate limiter. */
export const operatorBudgets = (share: FairShare): Record<OperatorBudget, readonly RateWindow[]> => ({
  company: [{ points: share.companyPerMinute, seconds: 60 }],
  authFailures: [{ points: share.authFailuresPerMinute, seconds: 60 }],
  webTrackingAddress: WEB_TRACKING_ADDRESS_WINDOWS,
  webTrackingKey: WEB_TRACKING_KEY_WINDOWS,
});
