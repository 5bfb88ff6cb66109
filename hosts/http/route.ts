import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { Container } from "inversify";
import type * as t from "io-ts";
import { missingScopeMessage, missingScopes } from "../../core/access/permissions.js";
import type { RateBudget } from "../../core/access/rate-budgets.js";
import type { Scope } from "../../core/access/scopes.js";
import { RateLimiter } from "../../core/ports/rate-limiter.js";
import type { Actor } from "../../core/shared/actor.js";
import { decode } from "../../core/shared/codecs.js";
import { forbidden } from "../../core/shared/errors.js";
import type { Result } from "../../core/shared/result.js";
import { errorBody, statusOf } from "./error-body.js";
import { rateLimit } from "./middleware/rate-limit.js";
import { idempotency } from "./middleware/idempotency.js";
import { IdempotencyStore } from "../../core/idempotency/ports.js";
import { Clock } from "../../core/ports/clock.js";

export interface RouteInput<B, Q, P> {
  readonly body: B;
  readonly query: Q;
  readonly params: P;
}

export interface RouteContext<B = unknown, Q = unknown, P = unknown> {
  readonly input: RouteInput<B, Q, P>;
  readonly req: Request;
  readonly actor: Actor;
  readonly container: Container;
}

/**
 * One API route, declared as data. The registry mounts it under /api/v1 and /v1, checks its
 * scopes, decodes its body, query and path with its codecs (422 on failure), and documents it
 * in the OpenAPI description from the same codecs. The handler calls one use case and returns
 * its Result; the payload is sent as `{success:true, ...payload}`.
 */
export interface Route<B = unknown, Q = unknown, P = unknown> {
  readonly method: "get" | "post" | "put" | "patch" | "delete";
  /** Relative to /api/v1, Express syntax (`/api-keys/:apiKeyId`). */
  readonly path: string;
  readonly scopes: readonly Scope[];
  readonly summary: string;
  readonly tag: string;
  readonly body?: t.Type<B, unknown, unknown>;
  /** Largest JSON body accepted, when not the standard 1mb (bulk imports). */
  readonly bodyLimit?: string;
  readonly query?: t.Type<Q, unknown, unknown>;
  readonly params?: t.Type<P, unknown, unknown>;
  /** The success payload (without `success`), for the description. */
  readonly response: t.Any;
  /** Error statuses of this route beyond the ones every route has (401, 429, 500, 503). */
  readonly errors?: readonly number[];
  readonly successStatus?: number;
  /** The message of a 500 on this route, where the spec names one. */
  readonly internalErrorMessage?: string;
  /** A budget of its own instead of the standard one, and how many units a request spends. */
  readonly rateLimit?: { readonly budget: RateBudget; readonly units?: (req: Request) => number };
  /** Honours `Idempotency-Key` (replays the first answer for this long), once the scopes are checked. */
  readonly idempotency?: { readonly ttlMs: number };
  handle(context: RouteContext<B, Q, P>): Promise<Result<Record<string, unknown>>>;
}

/** Checks a route's handler against its codecs, then erases the types for the registry. */
export const defineRoute = <B = undefined, Q = undefined, P = undefined>(route: Route<B, Q, P>): Route => route as unknown as Route;

export const INTERNAL_ERROR_MESSAGE = "Internal server error";

export const actorOf = (res: Response): Actor => res.locals.actor as Actor;

export function sendResult(res: Response, result: Result<Record<string, unknown>>, successStatus = 200): void {
  if (result._tag === "Left") {
    res.status(statusOf(result.left)).json(errorBody(result.left));
  } else {
    res.status(successStatus).json({ success: true, ...result.right });
  }
}

function decodeInput(route: Route, req: Request): Result<RouteInput<unknown, unknown, unknown>> {
  const body = route.body ? decode(route.body, req.body ?? {}) : ({ _tag: "Right", right: undefined } as const);
  if (body._tag === "Left") return body;
  const query = route.query ? decode(route.query, req.query) : ({ _tag: "Right", right: undefined } as const);
  if (query._tag === "Left") return query;
  const params = route.params ? decode(route.params, req.params) : ({ _tag: "Right", right: req.params } as const);
  if (params._tag === "Left") return params;
  return { _tag: "Right", right: { body: body.right, query: query.right, params: params.right } };
}

/** Only routes that take a body parse one: a GET pays nothing for JSON. */
const parseJson = express.json({ limit: "1mb" });

export function mountRoutes(router: Router, routes: readonly Route[], container: Container): void {
  for (const route of routes) {
    const own = route.rateLimit ? [rateLimit(container.get<RateLimiter>(RateLimiter), route.rateLimit.budget, route.rateLimit.units)] : [];
    const body = route.body ? [route.bodyLimit ? express.json({ limit: route.bodyLimit }) : parseJson] : [];
    const idempotent = route.idempotency ? [idempotency(container.get<IdempotencyStore>(IdempotencyStore), container.get<Clock>(Clock), route.idempotency)] : [];
    const checkScopes = (_req: Request, res: Response, next: NextFunction) => {
      const missing = missingScopes(route.scopes, actorOf(res).scopes);
      if (missing.length === 0) return next();
      const error = forbidden(missingScopeMessage(missing));
      res.status(statusOf(error)).json(errorBody(error));
    };
    router[route.method](route.path, ...body, ...own, checkScopes, ...idempotent, async (req: Request, res: Response, next: NextFunction) => {
      const actor = actorOf(res);
      if (route.internalErrorMessage) res.locals.internalErrorMessage = route.internalErrorMessage;
      try {
        const input = decodeInput(route, req);
        if (input._tag === "Left") return sendResult(res, input);
        sendResult(res, await route.handle({ input: input.right, req, actor, container }), route.successStatus);
      } catch (error) {
        next(error);
      }
    });
  }
}
