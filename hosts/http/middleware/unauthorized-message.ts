import express, { type Request, type Response } from "express";
import type { Route } from "../route.js";

/** The 401 message of the route a request is for, or undefined for the standard one. */
export type UnauthorizedMessageOf = (req: Request, res: Response) => Promise<string | undefined>;

/** Methods Express routes by; any other (OPTIONS) would make a router answer on its own. */
const ROUTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]);
const MATCHED = "unauthorizedMessageRoute";

/**
 * Finds the route a refused request was for, so the 401 can carry the message the spec states for
 * it. Express matches the request against every route in mounting order (the routes given here
 * must be in that order), so the route that would have served it decides, with Express's own
 * matching; only refused requests pay for the look.
 */
export function unauthorizedMessageOf(routesInMountingOrder: readonly Route[]): UnauthorizedMessageOf {
  if (!routesInMountingOrder.some((route) => route.unauthorizedMessage)) return async () => undefined;
  const matcher = express.Router();
  for (const route of routesInMountingOrder) {
    matcher[route.method](route.path, (_req: Request, res: Response, next: (signal: "router") => void) => {
      res.locals[MATCHED] = route;
      // Leaves the matcher at the first match (as routing would), restoring req's routing state.
      next("router");
    });
  }
  return (req, res) =>
    new Promise((resolve) => {
      if (!ROUTED_METHODS.has(req.method)) return resolve(undefined);
      matcher(req, res, () => {
        const route = res.locals[MATCHED] as Route | undefined;
        delete res.locals[MATCHED];
        resolve(route?.unauthorizedMessage);
      });
    });
}
