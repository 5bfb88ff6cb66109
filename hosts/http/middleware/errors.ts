import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "../../logger.js";
import { INTERNAL_ERROR_MESSAGE } from "../route.js";

export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ success: false, error: "Not found" });
};

interface HttpError {
  type?: string;
  status?: number;
  expose?: boolean;
  message?: string;
}

/**
 * The last stop: malformed JSON is the caller's 400; other client errors raised by the body
 * parser keep their status; anything else is a 500 whose details go to the log only.
 */
export const errorHandler =
  (logger: Logger): ErrorRequestHandler =>
  (error: unknown, req, res, _next) => {
    const httpError = (error ?? {}) as HttpError;
    if (httpError.type === "entity.parse.failed") {
      res.status(400).json({ success: false, error: "Malformed JSON in request body" });
      return;
    }
    if (httpError.expose && httpError.status && httpError.status >= 400 && httpError.status < 500) {
      res.status(httpError.status).json({ success: false, error: httpError.message ?? "Bad request" });
      return;
    }
    logger.error({ err: error, method: req.method, url: req.originalUrl }, "request failed");
    if (res.headersSent) return;
    res.status(500).json({ success: false, error: (res.locals.internalErrorMessage as string | undefined) ?? INTERNAL_ERROR_MESSAGE });
  };
