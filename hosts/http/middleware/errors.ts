import type { ErrorRequestHandler, RequestHandler } from "express";
import { isDatabaseUnavailable } from "../../../adapters/knex/database-unavailable.js";
import { isStatementTimeout } from "../../../adapters/knex/statement-timeout.js";
import type { Logger } from "../../logger.js";
import { INTERNAL_ERROR_MESSAGE } from "../error-body.js";

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ success: false, error: "Not found" });
};

/** Seconds a client should wait before retrying while the database is unavailable. */
export const RETRY_AFTER_SECONDS = 5;
/** Retrying is advertised only for methods that are safe or idempotent (spec, Errors). */
export const RETRYABLE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

interface HttpError {
  type?: string;
  status?: number;
  expose?: boolean;
  message?: string;
}

/**
 * The last stop: malformed JSON is the caller's 400; other client errors raised by the body
 * parser keep their status; a database that does not answer, or a statement stopped at the time
 * limit, is a 503 the client may retry;
 * anything else is a 500 whose details go to the log only.
 */
export const errorHandler =
  (logger: Logger): ErrorRequestHandler =>
  (error: unknown, req, res, _next) => {
    const httpError = (error ?? {}) as HttpError;
    if (httpError.type === "entity.parse.failed") {
      res.status(400).json({ success: false, error: "Malformed JSON in request body" });
      return;
    }
    // A path Express cannot percent-decode (`%FF`): the caller's mistake, not ours.
    if (error instanceof URIError) {
      res.status(400).json({ success: false, error: "Malformed percent-encoding in the request path" });
      return;
    }
    if (httpError.expose && httpError.status && httpError.status >= 400 && httpError.status < 500) {
      res.status(httpError.status).json({ success: false, error: httpError.message ?? "Bad request" });
      return;
    }
    if (res.headersSent) return;
    if (isDatabaseUnavailable(error)) {
      logger.warn({ err: error, method: req.method, path: req.path }, "database unavailable");
      if (RETRYABLE_METHODS.has(req.method)) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
      res.status(503).json({ success: false, error: "The service is temporarily unavailable. Please retry shortly.", code: "SERVICE_UNAVAILABLE" });
      return;
    }
    // A statement stopped at the time limit: the request asked for more than the database would do at once.
    if (isStatementTimeout(error)) {
      logger.warn({ err: error, method: req.method, path: req.path }, "database statement timed out");
      if (RETRYABLE_METHODS.has(req.method)) res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
      res.status(503).json({
        success: false,
        error: "The request took longer than the database allows and was stopped. Please retry shortly, or ask for less (a smaller page, narrower filters).",
        code: "SERVICE_UNAVAILABLE",
      });
      return;
    }
    logger.error({ err: error, method: req.method, path: req.path }, "request failed");
    res.status(500).json({ success: false, error: (res.locals.internalErrorMessage as string | undefined) ?? INTERNAL_ERROR_MESSAGE });
  };
