import type { Knex } from "knex";
import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { PUBLIC_BUDGETS, RATE_BUDGETS, ratePolicy, type OperatorBudget, type RateBudget, type RateWindow } from "../../core/access/rate-budgets.js";
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
      return new RateLimiterPostgres({
        storeClient: store.knex,
        storeType: "knex",
        tableName: RATE_LIMIT_TABLE,
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix,
        points,
        duration,
      });
    case "redis":
      // While Redis is out of reach, each server limits on its own rather than failing requests.
      return new RateLimiterRedis({
        storeClient: store.redis,
        keyPrefix,
        points,
        duration,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration }),
      });
  }
}

/** Enough for every client of a busy server. */
const MAX_REMEMBERED = 100_000;

type Remembered<V> = Map<string, { readonly value: V; readonly until: number }>;

/** Keeps a value for `forMs`; past the bound the ended ones go, or, failing that, all. */
function remember<V>(memory: Remembered<V>, key: string, value: V, forMs: number): void {
  if (memory.size >= MAX_REMEMBERED) {
    const now = Date.now();
    for (const [known, entry] of memory) if (entry.until <= now) memory.delete(known);
    if (memory.size >= MAX_REMEMBERED) memory.clear();
  }
  memory.set(key, { value, until: Date.now() + forMs });
}

/** What one window held after a count: its points left until it starts afresh at `resetAt`. */
interface CountedWindow {
  readonly remaining: number;
  readonly resetAt: number;
}

interface Outcome {
  readonly window: Window;
  readonly res: RateLimiterRes;
  readonly allowed: boolean;
}

/** rate-limiter-flexible behind the RateLimiter port, one limiter per window of each budget. */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly budgets: Record<RateBudget, Window[]>;
  /** Refusals met by this process, until their window ends (see refusal()). */
  private readonly refusals: Remembered<RateDecision> = new Map();
  /**
   * The last count this process made of each subject, window by window, until its longest window
   * ends: peek() answers from it (a window that has ended since has every point again), so the
   * headers of a request refused elsewhere cost a shared store no statement. Counters in this
   * process's memory are read directly instead.
   */
  private readonly lastCounted: Remembered<readonly CountedWindow[]> = new Map();

  constructor(
    private readonly store: RateStore,
    operatorBudgets: Record<OperatorBudget, readonly RateWindow[]>,
  ) {
    this.budgets = Object.fromEntries(
      Object.entries({ ...RATE_BUDGETS, ...PUBLIC_BUDGETS, ...operatorBudgets }).map(([budget, windows]) => [
        budget,
        windows.map((window) => ({
          points: window.points,
          seconds: window.seconds,
          limiter: buildLimiter(store, `rl:${budget}:${window.seconds}s`, window.points, window.seconds),
        })),
      ]),
    ) as Record<RateBudget, Window[]>;
  }

  async consume(budget: RateBudget, subject: string, units = 1): Promise<RateDecision> {
    const outcomes = await Promise.all(
      this.budgets[budget].map(async (window): Promise<Outcome> => {
        try {
          return { window, res: await window.limiter.consume(subject, units), allowed: true };
        } catch (rejection) {
          // A refusal arrives as a RateLimiterRes; anything else is the store failing.
          if (rejection instanceof RateLimiterRes) return { window, res: rejection, allowed: false };
          throw rejection;
        }
      }),
    );
    const decision = this.decide(budget, outcomes);
    if (this.store.kind !== "memory") {
      const now = Date.now();
      const windows = outcomes.map(({ res }) => ({ remaining: res.remainingPoints, resetAt: now + res.msBeforeNext }));
      remember(this.lastCounted, `${budget}:${subject}`, windows, Math.max(...outcomes.map(({ res }) => res.msBeforeNext)));
    }
    if (!decision.allowed) {
      // A refusal of several units says nothing about a smaller request.
      if (units === 1) remember(this.refusals, `${budget}:${subject}`, decision, decision.retryAfterMs);
      // The store counted the refused units too; giving them back keeps a refused request free.
      await this.refund(budget, subject, units);
    }
    return decision;
  }

  async peek(budget: RateBudget, subject: string): Promise<RateDecision> {
    const counted = this.lastCounted.get(`${budget}:${subject}`);
    const now = Date.now();
    if (counted && counted.until > now) {
      const outcomes = this.budgets[budget].map((window, i): Outcome => {
        const known = counted.value[i];
        const res =
          known && known.resetAt > now ? new RateLimiterRes(known.remaining, known.resetAt - now, 0, false) : new RateLimiterRes(window.points, 0, 0, false);
        return { window, res, allowed: true };
      });
      return this.decide(budget, outcomes);
    }
    const outcomes = await Promise.all(
      this.budgets[budget].map(async (window): Promise<Outcome> => {
        // A subject not yet counted in this window has every point left.
        const res = (await window.limiter.get(subject)) ?? new RateLimiterRes(window.points, 0, 0, false);
        return { window, res, allowed: true };
      }),
    );
    return this.decide(budget, outcomes);
  }

  async refund(budget: RateBudget, subject: string, units = 1): Promise<void> {
    await Promise.all(this.budgets[budget].map((window) => window.limiter.reward(subject, units)));
  }

  refusal(budget: RateBudget, subject: string): RateDecision | undefined {
    const key = `${budget}:${subject}`;
    const known = this.refusals.get(key);
    if (known && known.until > Date.now()) return { ...known.value, retryAfterMs: known.until - Date.now() };
    if (known) this.refusals.delete(key);
    return undefined;
  }

  private decide(budget: RateBudget, outcomes: readonly Outcome[]): RateDecision {
    const refused = outcomes.filter((outcome) => !outcome.allowed);
    const speaking =
      refused.length > 0
        ? refused.reduce((a, b) => (b.res.msBeforeNext > a.res.msBeforeNext ? b : a))
        : outcomes.reduce((a, b) => (b.res.remainingPoints < a.res.remainingPoints ? b : a));
    return {
      allowed: refused.length === 0,
      limit: speaking.window.points,
      windowSeconds: speaking.window.seconds,
      remaining: Math.max(0, speaking.res.remainingPoints),
      resetMs: speaking.res.msBeforeNext,
      retryAfterMs: refused.length > 0 ? speaking.res.msBeforeNext : 0,
      policy: ratePolicy(this.budgets[budget]),
    };
  }

  async close(): Promise<void> {
    if (this.store.kind === "redis") await this.store.redis.quit().catch(() => undefined);
  }
}
