import type { Request, RequestHandler, Response } from "express";
import type { RateBudget } from "../../../core/access/rate-budgets.js";
import type { FairAdmission } from "../../../core/access/fair-admission.js";
import type { RateDecision, RateLimiter } from "../../../core/ports/rate-limiter.js";
import { actorOf } from "../actor.js";
import type { CompanyRefusals, RefusedKey } from "../../../core/access/company-refusals.js";
import { credentialsDigest } from "./presented-key.js";

/**
 * Admits a request of an authenticated key: it takes one of its company's places in flight, then
 * spends `units` of the key's budget and one unit of its company's ceiling (all keys of the
 * company together). Every limited response carries the RateLimit-* headers of the key's budget;
 * a refusal is a 429 with Retry-After, and whatever the request had spent is given back. An
 * admitted request may wait for its turn to be worked on (FairAdmission) before it goes on.
 */
export interface RateLimitOptions {
  /** Units of the budget one request spends (default 1). */
  readonly units?: (req: Request) => number;
  readonly admission?: FairAdmission;
  /** Told of every key refused for its company's ceiling. */
  readonly companyRefusals?: CompanyRefusals;
  /** The body of a 429 given its message: the spec's envelope unless a surface answers in its own protocol (MCP: JSON-RPC). */
  readonly refusalBody?: RefusalBody;
}

export type RefusalBody = (message: string, res: Response) => unknown;

const envelope: RefusalBody = (error) => ({ success: false, error });

export const rateLimit =
  (limiter: RateLimiter, budget: RateBudget, { units = () => 1, admission, companyRefusals, refusalBody = envelope }: RateLimitOptions = {}): RequestHandler =>
  async (req, res, next) => {
    const { apiKeyId, companyId } = actorOf(res);
    const spent = Math.max(1, units(req));
    // A client asking again inside a window it was refused is answered without the store.
    const known = spent === 1 ? limiter.refusal(budget, apiKeyId) : undefined;
    if (known) return refuse(res, known, "API key", refusalBody);
    const refusedKey = { companyId, apiKeyId, budget };
    const knownForCompany = limiter.refusal("company", companyId);
    if (knownForCompany) {
      rememberRefused(req, refusedKey, companyRefusals);
      return refuse(res, knownForCompany, "company", refusalBody);
    }
    // A company with every place in flight taken is refused before anything is spent or counted.
    const admitted = admission?.tryEnter(companyId);
    if (admission && !admitted) {
      rememberRefused(req, refusedKey, companyRefusals);
      return refuseInFlight(res, limiter, refusedKey, admission.max, refusalBody);
    }
    // "close" follows every response, finished or abandoned by the client (even while it waits).
    if (admitted) res.once("close", admitted.leave);
    const [key, company] = await Promise.all([limiter.consume(budget, apiKeyId, spent), limiter.consume("company", companyId)]);
    if (!key.allowed) {
      if (company.allowed) await limiter.refund("company", companyId);
      return refuse(res, key, "API key", refusalBody);
    }
    if (!company.allowed) {
      await limiter.refund(budget, apiKeyId, spent);
      rememberRefused(req, refusedKey, companyRefusals);
      return refuse(res, company, "company", refusalBody);
    }
    setRateHeaders(res, key);
    await admitted?.turn;
    next();
  };

function rememberRefused(req: Request, key: RefusedKey, companyRefusals: CompanyRefusals | undefined): void {
  const credentials = companyRefusals && credentialsDigest(req);
  if (credentials) companyRefusals.remember(credentials, key);
}

/** The 429 of a company with every place in flight taken, with the headers of the key's budget (which it does not spend). */
export async function refuseInFlight(res: Response, limiter: RateLimiter, key: RefusedKey, max: number, body: RefusalBody = envelope): Promise<void> {
  setRateHeaders(res, await limiter.peek(key.budget, key.apiKeyId));
  res.setHeader("Retry-After", "1");
  res.status(429).json(body(`Too many requests in progress: at most ${max} at once per company. Retry after 1 second.`, res));
}

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

export function refuse(res: Response, decision: RateDecision, per: string, body: RefusalBody = envelope): void {
  setRateHeaders(res, decision);
  const retryAfter = setRetryAfter(res, decision);
  res.status(429).json(body(rateLimitMessage(decision, per, retryAfter), res));
}

/** The sentence of a refusal: the window that ran out, and when to retry. */
export const rateLimitMessage = (decision: RateDecision, per: string, retryAfterSeconds: number): string =>
  `Rate limit exceeded: ${decision.limit} requests per ${windowName(decision.windowSeconds)} per ${per}. Retry after ${retryAfterSeconds} second${retryAfterSeconds === 1 ? "" : "s"}.`;

export const windowName = (seconds: number): string => (seconds === 1 ? "second" : seconds === 60 ? "minute" : `${seconds} seconds`);
