import type { Request, RequestHandler } from "express";
import type { AuthenticateApiKey } from "../../../core/api-keys/authenticate-api-key.js";
import { errorBody, statusOf } from "../error-body.js";

/** The key from `Authorization: Bearer <key>` or `x-api-key: <key>`. */
export function presentedKey(req: Request): string | undefined {
  const authorization = req.headers.authorization;
  if (authorization) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  const header = req.headers["x-api-key"];
  return typeof header === "string" && header.trim() ? header.trim() : undefined;
}

/** Builds the Actor once per request; everything after it may rely on `res.locals.actor`. */
export const authenticate =
  (authentication: AuthenticateApiKey): RequestHandler =>
  async (req, res, next) => {
    const companyHeader = req.headers["x-company-id"];
    const requestedCompany = typeof companyHeader === "string" && companyHeader.trim() ? companyHeader.trim() : undefined;
    const result = await authentication.execute(presentedKey(req), requestedCompany);
    if (result._tag === "Left") {
      res.status(statusOf(result.left)).json(errorBody(result.left));
      return;
    }
    res.locals.actor = result.right;
    next();
  };
