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

export type RateBudget = keyof typeof RATE_BUDGETS;

/** `RateLimit-Policy`: `20;w=1, 300;w=60`. */
export const ratePolicy = (budget: RateBudget): string => RATE_BUDGETS[budget].map((w) => `${w.points};w=${w.seconds}`).join(", ");
