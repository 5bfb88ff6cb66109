import type { Request, RequestHandler, Response } from "express";
import type { RateBudget } from "../../../core/access/rate-budgets.js";
import type { InFlightGate } from "../../../core/access/in-flight-gate.js";
import type { RateDecision, RateLimiter } from "../../../core/ports/rate-limiter.js";
import { actorOf } from "../actor.js";

/**
 * Admits a request of an authenticated key: it spends `units` of the key's budget and one unit
 * of its company's ceiling (all keys of the company together), then takes one of the company's
 * places in flight. Every limited response carries the RateLimit-* headers of the key's budget;
 * a refusal is a 429 with Retry-After, and whatever the request had spent is given back.
 */
export const rateLimit =
  (limiter: RateLimiter, budget: RateBudget, units: (req: Request) => number = () => 1, inFlight?: InFlightGate): RequestHandler =>
  async (req, res, next) => {
    const { apiKeyId, companyId } = actorOf(res);
    const spent = Math.max(1, units(req));
    // A client asking again inside a window it was refused is answered without the store.
    const known = spent === 1 ? limiter.refusal(budget, apiKeyId) : undefined;
    if (known) return refuse(res, known, "API key");
    const knownForCompany = limiter.refusal("company", companyId);
    if (knownForCompany) return refuse(res, knownForCompany, "company");
    const [key, company] = await Promise.all([limiter.consume(budget, apiKeyId, spent), limiter.consume("company", companyId)]);
    if (!key.allowed) {
      if (company.allowed) await limiter.refund("company", companyId);
      return refuse(res, key, "API key");
    }
    if (!company.allowed) {
      await limiter.refund(budget, apiKeyId, spent);
      return refuse(res, company, "company");
    }
    if (inFlight && !inFlight.tryEnter(companyId)) {
      await Promise.all([limiter.refund(budget, apiKeyId, spent), limiter.refund("company", companyId)]);
      setRateHeaders(res, key);
      res.setHeader("Retry-After", "1");
      res.status(429).json({
        success: false,
        error: `Too many requests in progress: at most ${inFlight.max} at once per company. Retry after 1 second.`,
      });
      return;
    }
    // "close" follows every response, finished or abandoned by the client.
    if (inFlight) res.once("close", () => inFlight.leave(companyId));
    setRateHeaders(res, key);
    next();
  };

export function setRateHeaders(res: Response, decision: RateDecision): void {
  res.setHeader("RateLimit-Limit", String(decision.limit));
  res.setHeader("RateLimit-Remaining", String(decision.remaining));
  res.setHeader("RateLimit-Reset", String(Math.ceil(decision.resetMs / 1000)));
  res.setHeader("RateLimit-Policy", decision.policy);
}

/** Sets Retry-After (whole seconds, at least 1) for a refusal and returns it. */
export function setRetryAfter(res: Response, decision: RateDecision): number {
  const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
  res.setHeader("Retry-After", String(retryAfter));
  return retryAfter;
}

function refuse(res: Response, decision: RateDecision, per: string): void {
  setRateHeaders(res, decision);
  const retryAfter = setRetryAfter(res, decision);
  res.status(429).json({
    success: false,
    error: `Rate limit exceeded: ${decision.limit} requests per ${windowName(decision.windowSeconds)} per ${per}. Retry after ${retryAfter} second${retryAfter === 1 ? "" : "s"}.`,
  });
}

export const windowName = (seconds: number): string => (seconds === 1 ? "second" : seconds === 60 ? "minute" : `${seconds} seconds`);
