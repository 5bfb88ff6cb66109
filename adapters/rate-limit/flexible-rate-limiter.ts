import type { Knex } from "knex";
import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { RATE_BUDGETS, type RateBudget } from "../../core/access/rate-budgets.js";
import type { RateDecision, RateLimiter } from "../../core/ports/rate-limiter.js";

/** Where the counters live: in process (one SQLite server), in Postgres, or in Redis. */
export type RateStore = { readonly kind: "memory" } | { readonly kind: "postgres"; readonly knex: Knex } | { readonly kind: "redis"; readonly redis: Redis };

export const RATE_LIMIT_TABLE = "rate_limits";

interface Window {
  readonly limiter: RateLimiterAbstract;
  readonly points: number;
  readonly seconds: number;
}

function buildLimiter(store: RateStore, keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
  switch (store.kind) {
    case "memory":
      return new RateLimiterMemory({ keyPrefix, points, duration });
    case "postgres":
      // The table comes from our migrations; expired rows are swept by a scheduled job.
      return new RateLimiterPostgres({ storeClient: store.knex, storeType: "knex", tableName: RATE_LIMIT_TABLE, tableCreated: true, clearExpiredByTimeout: false, keyPrefix, points, duration });
    case "redis":
      // While Redis is out of reach, each server limits on its own rather than failing requests.
      return new RateLimiterRedis({ storeClient: store.redis, keyPrefix, points, duration, insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }) });
  }
}

/** rate-limiter-flexible behind the RateLimiter port, one limiter per window of each budget. */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly budgets: Record<RateBudget, Window[]>;

  constructor(private readonly store: RateStore) {
    this.budgets = Object.fromEntries(
      Object.entries(RATE_BUDGETS).map(([budget, windows]) => [
        budget,
        windows.map((window) => ({ points: window.points, seconds: window.seconds, limiter: buildLimiter(store, `rl:${budget}:${window.seconds}s`, window.points, window.seconds) })),
      ]),
    ) as Record<RateBudget, Window[]>;
  }

  async consume(budget: RateBudget, subject: string, units = 1): Promise<RateDecision> {
    const outcomes = await Promise.all(
      this.budgets[budget].map(async (window) => {
        try {
          return { window, res: await window.limiter.consume(subject, units), allowed: true };
        } catch (rejection) {
          // A refusal arrives as a RateLimiterRes; anything else is the store failing.
          if (rejection instanceof RateLimiterRes) return { window, res: rejection, allowed: false };
          throw rejection;
        }
      }),
    );
    const refused = outcomes.filter((outcome) => !outcome.allowed);
    const speaking = refused.length > 0
      ? refused.reduce((a, b) => (b.res.msBeforeNext > a.res.msBeforeNext ? b : a))
      : outcomes.reduce((a, b) => (b.res.remainingPoints < a.res.remainingPoints ? b : a));
    return {
      allowed: refused.length === 0,
      limit: speaking.window.points,
      windowSeconds: speaking.window.seconds,
      remaining: Math.max(0, speaking.res.remainingPoints),
      resetMs: speaking.res.msBeforeNext,
      retryAfterMs: refused.length > 0 ? speaking.res.msBeforeNext : 0,
    };
  }

  async close(): Promise<void> {
    if (this.store.kind === "redis") await this.store.redis.quit().catch(() => undefined);
  }
}
