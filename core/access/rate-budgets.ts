/**
 * The spec's rate limits (Limits): per API key, each budget applies all of its windows at once.
 * `/api/v1` and `/v1` share the standard budget; transactional sends count one unit per recipient.
 */
export interface RateWindow {
  readonly points: number;
  readonly seconds: number;
}

export const RATE_BUDGETS = {
  standard: [
    { points: 20, seconds: 1 },
    { points: 300, seconds: 60 },
  ],
  transactional: [
    { points: 50, seconds: 1 },
    { points: 1_000, seconds: 60 },
  ],
  mcp: [
    { points: 20, seconds: 1 },
    { points: 300, seconds: 60 },
  ],
} as const satisfies Record<string, readonly RateWindow[]>;

/** A budget of the spec, spent per API key. */
export type KeyBudget = keyof typeof RATE_BUDGETS;

/**
 * Budgets of the operator's choosing (not the spec's): `company` is spent once per request by
 * every key of a company together; `authFailures` once per failed authentication, per client address;
 * `webTrackingAddress` and `webTrackingKey` once per request of the tracking script, per client
 * address and per web tracking key.
 */
export type OperatorBudget = "company" | "authFailures" | "webTrackingAddress" | "webTrackingKey";

/**
 * Budgets of the public surfaces, reached without a key (spec: public form submissions have
 * their own abuse limits; the values are ours): `formSubmissions` per form, so a flood from many
 * addresses cannot fill a company's contacts, and `formSubmitters` per client address, so one
 * visitor or script cannot sign up address after address.
 */
export const PUBLIC_BUDGETS = {
  formSubmissions: [
    { points: 20, seconds: 1 },
    { points: 600, seconds: 60 },
  ],
  formSubmitters: [
    { points: 10, seconds: 60 },
    { points: 100, seconds: 3_600 },
  ],
} as const satisfies Record<string, readonly RateWindow[]>;

export type PublicBudget = keyof typeof PUBLIC_BUDGETS;

export type RateBudget = KeyBudget | OperatorBudget | PublicBudget;

/** `RateLimit-Policy`: `20;w=1, 300;w=60`. */
export const ratePolicy = (windows: readonly RateWindow[]): string => windows.map((w) => `${w.points};w=${w.seconds}`).join(", ");
