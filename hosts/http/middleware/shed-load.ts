import type { RequestHandler } from "express";
import type { Logger } from "../../logger.js";
import { RETRY_AFTER_SECONDS, RETRYABLE_METHODS } from "./errors.js";

export interface LoadReadings {
  /** The event loop's recent delay, ms. */
  eventLoopDelayMs(): number;
  /** Database queries waiting for a pool connection. */
  queuedQueries(): number;
}

export interface SheddingThresholds {
  /** 0 turns the rule off. */
  readonly eventLoopDelayMs: number;
  readonly queuedQueries: number;
}

/**
 * Refuses new API requests with a 503 before any work is done (no key lookup, no query) while
 * the server is behind: the work already admitted finishes sooner, and the client comes back later.
 */
export function shedLoad(readings: LoadReadings, thresholds: SheddingThresholds, logger: Logger): RequestHandler {
  // One warning a second says how many were refused: a line per refusal would add to the load.
  let refused = 0;
  let reportedAt = 0;
  return (req, res, next) => {
    const behind =
      (thresholds.eventLoopDelayMs > 0 && readings.eventLoopDelayMs() > thresholds.eventLoopDelayMs) ||
      (thresholds.queuedQueries > 0 && readings.queuedQueries() > thresholds.queuedQueries);
    if (!behind) return next();
    refused += 1;
    const now = Date.now();
    if (now - reportedAt >= 1_000) {
      logger.warn({ refused, eventLoopDelayMs: Math.round(readings.eventLoopDelayMs()), queuedQueries: readings.queuedQueries() }, "shedding load");
      refused = 0;
      reportedAt = now;
    }
    res.locals.shed = true;
    if (RETRYABLE_METHODS.has(req.method)) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
    res.status(503).json({ success: false, error: "The service is busy. Please retry shortly.", code: "SERVICE_UNAVAILABLE" });
  };
}
