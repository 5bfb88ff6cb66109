import type { RequestHandler, Response } from "express";
import type { AuthenticateApiKey } from "../../../core/api-keys/authenticate-api-key.js";
import type { RateDecision, RateLimiter } from "../../../core/ports/rate-limiter.js";
import { errorBody, statusOf } from "../error-body.js";
import type { CompanyRefusals } from "../../../core/access/company-refusals.js";
import { credentialsDigest, presentedKey } from "./presented-key.js";
import { refuse, refuseInFlight, setRateHeaders, setRetryAfter, windowName } from "./rate-limit.js";
import type { UnauthorizedMessageOf } from "./unauthorized-message.js";

export interface AuthenticateOptions {
  /** Counts refused keys per client address and refuses an address over its budget. */
  readonly failures?: RateLimiter;
  readonly companyRefusals?: CompanyRefusals;
  /** The 401 message of the route asked for, where it names one (the refusal stays the same for every bad key). */
  readonly unauthorizedMessageOf?: UnauthorizedMessageOf;
}

/**
 * Builds the Actor once per request; everything after it may rely on `res.locals.actor`.
 * With a limiter, every key refused counts against the client's address (`req.ip`, which follows
 * trusted proxies); an address over its budget is refused with 429, from then on before its key
 * is even looked up: keys cannot be tried at line rate. A key whose company is over its ceiling
 * right now, or whose company has every place in flight taken, is refused with 429 before it is
 * looked up too (CompanyRefusals). A refused key gets
 * one body whatever was wrong with it; a route may name the message of that body.
 */
export const authenticate =
  (authentication: AuthenticateApiKey, options: AuthenticateOptions = {}): RequestHandler =>
  async (req, res, next) => {
    const { failures, companyRefusals, unauthorizedMessageOf } = options;
    const address = req.ip ?? req.socket.remoteAddress ?? "unknown";
    const refused = failures?.refusal("authFailures", address);
    if (refused) return tooManyFailures(res, refused);
    // Hashing the key costs a little on every request: only while some company is refused.
    if (companyRefusals && !companyRefusals.isEmpty) {
      const credentials = credentialsDigest(req);
      const refusal = credentials ? companyRefusals.refusalFor(credentials) : undefined;
      if (refusal?.reason === "ceiling") return refuse(res, refusal.decision, "company");
      if (refusal?.reason === "inFlight") return refuseInFlight(res, companyRefusals.limiter, refusal.key, refusal.max);
    }
    const companyHeader = req.headers["x-company-id"];
    const requestedCompany = typeof companyHeader === "string" && companyHeader.trim() ? companyHeader.trim() : undefined;
    const key = presentedKey(req);
    const result = await authentication.execute(key, requestedCompany);
    if (result._tag === "Left") {
      const status = statusOf(result.left);
      // Only a key that was tried and refused counts: a request without one learns nothing.
      if (failures && key !== undefined && status === 401) {
        const decision = await failures.consume("authFailures", address);
        if (!decision.allowed) return tooManyFailures(res, decision);
      }
      const message = status === 401 ? await unauthorizedMessageOf?.(req, res) : undefined;
      res.status(status).json(errorBody(message ? { ...result.left, message } : result.left));
      return;
    }
    res.locals.actor = result.right;
    next();
  };

function tooManyFailures(res: Response, decision: RateDecision): void {
  setRateHeaders(res, decision);
  const retryAfter = setRetryAfter(res, decision);
  res.status(429).json({
    success: false,
    error: `Too many failed authentication attempts: ${decision.limit} per ${windowName(decision.windowSeconds)} per client address. Retry after ${retryAfter} second${retryAfter === 1 ? "" : "s"}.`,
  });
}
