import type { NextFunction, Request, Response, Router } from "express";
import type { Container } from "inversify";
import { missingScopeMessage, missingScopes } from "../../core/access/permissions.js";
import type { Scope } from "../../core/access/scopes.js";
import type { RateBudget } from "../../core/access/rate-budgets.js";
import { RateLimiter } from "../../core/ports/rate-limiter.js";
import type { Actor } from "../../core/shared/actor.js";
import { forbidden } from "../../core/shared/errors.js";
import type { Result } from "../../core/shared/result.js";
import { errorBody, statusOf } from "./error-body.js";
import { rateLimit } from "./middleware/rate-limit.js";

export interface RouteContext {
  readonly req: Request;
  readonly actor: Actor;
  readonly container: Container;
}

/**
 * One API route, declared as data: the registry that mounts it (under /api/v1 and /v1) checks
 * its scopes first. Handlers decode their input with the context's codecs, call one use case,
 * and return its Result; the payload is sent as `{success:true, ...payload}`.
 */
export interface Route {
  readonly method: "get" | "post" | "put" | "patch" | "delete";
  /** Relative to /api/v1, Express syntax (`/api-keys/:apiKeyId`). */
  readonly path: string;
  readonly scopes: readonly Scope[];
  readonly summary: string;
  readonly successStatus?: number;
  /** The message of a 500 on this route, where the spec names one. */
  readonly internalErrorMessage?: string;
  /** A budget of its own instead of the standard one, and how many units a request spends. */
  readonly rateLimit?: { readonly budget: RateBudget; readonly units?: (req: Request) => number };
  handle(context: RouteContext): Promise<Result<Record<string, unknown>>>;
}

export const INTERNAL_ERROR_MESSAGE = "Internal server error";

export const actorOf = (res: Response): Actor => res.locals.actor as Actor;

export function sendResult(res: Response, result: Result<Record<string, unknown>>, successStatus = 200): void {
  if (result._tag === "Left") {
    res.status(statusOf(result.left)).json(errorBody(result.left));
  } else {
    res.status(successStatus).json({ success: true, ...result.right });
  }
}

export function mountRoutes(router: Router, routes: readonly Route[], container: Container): void {
  for (const route of routes) {
    const own = route.rateLimit ? [rateLimit(container.get<RateLimiter>(RateLimiter), route.rateLimit.budget, route.rateLimit.units)] : [];
    router[route.method](route.path, ...own, async (req: Request, res: Response, next: NextFunction) => {
      const actor = actorOf(res);
      const missing = missingScopes(route.scopes, actor.scopes);
      if (missing.length > 0) {
        const error = forbidden(missingScopeMessage(missing));
        res.status(statusOf(error)).json(errorBody(error));
        return;
      }
      if (route.internalErrorMessage) res.locals.internalErrorMessage = route.internalErrorMessage;
      try {
        sendResult(res, await route.handle({ req, actor, container }), route.successStatus);
      } catch (error) {
        next(error);
      }
    });
  }
}
