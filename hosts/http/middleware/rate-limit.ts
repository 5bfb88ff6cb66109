import type { Request, RequestHandler } from "express";
import { ratePolicy, type RateBudget } from "../../../core/access/rate-budgets.js";
import type { RateLimiter } from "../../../core/ports/rate-limiter.js";
import { actorOf } from "../actor.js";

/**
 * Spends `units` of a budget for the request's API key. Every limited response carries the
 * RateLimit-* headers; over budget it is a 429 with Retry-After, and the request goes no further.
 */
export const rateLimit =
  (limiter: RateLimiter, budget: RateBudget, units: (req: Request) => number = () => 1): RequestHandler =>
  async (req, res, next) => {
    const decision = await limiter.consume(budget, actorOf(res).apiKeyId, Math.max(1, units(req)));
    const policy = ratePolicy(budget);
    res.setHeader("RateLimit-Limit", String(decision.limit));
    res.setHeader("RateLimit-Remaining", String(decision.remaining));
    res.setHeader("RateLimit-Reset", String(Math.ceil(decision.resetMs / 1000)));
    res.setHeader("RateLimit-Policy", policy);
    if (decision.allowed) return next();
    const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
    res.setHeader("Retry-After", String(retryAfter));
    res.status(429).json({
      success: false,
      error: `Rate limit exceeded: ${decision.limit} requests per ${windowName(decision.windowSeconds)} per API key. Retry after ${retryAfter} second${retryAfter === 1 ? "" : "s"}.`,
    });
  };

const windowName = (seconds: number): string => (seconds === 1 ? "second" : seconds === 60 ? "minute" : `${seconds} seconds`);
