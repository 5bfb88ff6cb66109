import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { Container } from "inversify";
import type * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import type { RateBudget } from "../../core/access/rate-budgets.js";
import { requireScopes } from "../../core/access/require-scopes.js";
import type { Scope } from "../../core/access/scopes.js";
import { RateLimiter } from "../../core/ports/rate-limiter.js";
import { FairAdmission } from "../../core/access/fair-admission.js";
import { CompanyRefusals } from "../../core/access/company-refusals.js";
import type { Actor } from "../../core/shared/actor.js";
import { decode } from "../../core/shared/codecs.js";
import { invalid, type DomainError } from "../../core/shared/errors.js";
import type { Role } from "../../core/tenancy/model.js";
import { inputBoundsViolation } from "../../core/shared/input-bounds.js";
import { fail, ok, type Result } from "../../core/shared/result.js";
import { IdempotencyStore } from "../../core/idempotency/ports.js";
import { Clock } from "../../core/ports/clock.js";
import { actorOf } from "./actor.js";
import { errorBody, statusOf } from "./error-body.js";
import { rateLimit } from "./middleware/rate-limit.js";
import { idempotency } from "./middleware/idempotency.js";

export interface RouteInput<B, Q, P> {
  readonly body: B;
  readonly query: Q;
  readonly params: P;
}

export interface RouteContext<B = unknown, Q = unknown, P = unknown> {
  readonly input: RouteInput<B, Q, P>;
  readonly req: Request;
  readonly actor: Actor;
}

/**
 * One API route, declared as data. The registry mounts it under /api/v1 and /v1, checks its
 * scopes, decodes its body, query and path with its codecs (422 on failure), calls the handler,
 * and sends the payload encoded through the `response` codec as `{success:true, ...payload}`.
 * The same codecs document the route in the OpenAPI description, so the description, the
 * handler's type and the wire are one thing.
 */
export interface Route<B = unknown, Q = unknown, P = unknown, R extends t.Any = t.Any> {
  readonly method: "get" | "post" | "put" | "patch" | "delete";
  /** Relative to /api/v1, Express syntax (`/api-keys/:apiKeyId`). */
  readonly path: string;
  readonly scopes: readonly Scope[];
  /** Team roles allowed, checked before the scopes: a member of another role gets `refusal` (spec, Team: 403 'admin access'). */
  readonly roles?: { readonly allowed: readonly Role[]; readonly refusal: DomainError };
  readonly summary: string;
  readonly tag: string;
  readonly body?: t.Type<B, unknown, unknown>;
  /** Largest JSON body accepted, when not the standard 1mb (bulk imports). */
  readonly bodyLimit?: string;
  readonly query?: t.Type<Q, unknown, unknown>;
  readonly params?: t.Type<P, unknown, unknown>;
  /** The success payload (without `success`): its type is the handler's output, its encoding the wire. */
  readonly response: R;
  /** Error statuses of this route beyond the ones every route has (401, 429, 500, 503). */
  readonly errors?: readonly number[];
  readonly successStatus?: number;
  /** The message of a 500 on this route, where the spec names one. */
  readonly internalErrorMessage?: string;
  /** The message of a 401 on this route, where the spec names one: every key refused gets it, whatever was wrong with the key. */
  readonly unauthorizedMessage?: string;
  /** A budget of its own instead of the standard one, and how many units a request spends (from its raw body: an HTTP request's or an MCP tool call's). */
  readonly rateLimit?: { readonly budget: RateBudget; readonly units?: (request: Pick<Request, "body">) => number };
  /** The canonical path of the same operation, when this route is a compatibility alias: documented, but not a separate MCP tool. */
  readonly aliasOf?: string;
  /** Honours `Idempotency-Key` (replays the first answer for this long), once the scopes are checked. */
  readonly idempotency?: { readonly ttlMs: number };
  handle(context: RouteContext<B, Q, P>): Promise<Result<t.TypeOf<R>>>;
}

/** Checks a route's handler against its codecs (its output against `response`), then erases the types for the registry. */
export const defineRoute = <B = undefined, Q = undefined, P = undefined, R extends t.Any = t.Any>(route: Route<B, Q, P, R>): Route => route as unknown as Route;

/** Puts a use case's output under its key in the payload: `under("list")(result)` answers `{list}`. */
export const under =
  <K extends string>(key: K) =>
  <A>(result: Result<A>): Result<{ readonly [P in K]: A }> =>
    map((value: A) => ({ [key]: value }) as { readonly [P in K]: A })(result);

/** What a route answers: its status and the envelope (`{success:true, ...payload}` encoded through `response`, or the error body). */
export interface RouteAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

export function routeAnswer(result: Result<unknown>, successStatus = 200, response?: t.Any): RouteAnswer {
  if (result._tag === "Left") return { status: statusOf(result.left), body: errorBody(result.left) };
  const payload = (response ? response.encode(result.right) : result.right) as Record<string, unknown>;
  return { status: successStatus, body: { success: true, ...payload } };
}

export function sendResult(res: Response, result: Result<unknown>, successStatus = 200, response?: t.Any): void {
  const answer = routeAnswer(result, successStatus, response);
  res.status(answer.status).json(answer.body);
}

/** Whether the actor may call the route: its role (where the route names roles), then its key's scopes. */
export function checkAccess(route: Route, actor: Actor): Result<void> {
  if (route.roles && !route.roles.allowed.includes(actor.role)) return fail(route.roles.refusal);
  return requireScopes(route.scopes, actor);
}

/** A route's raw input, before its codecs: from an HTTP request, or from the arguments of an MCP tool call. */
export interface RawRouteInput {
  readonly body: unknown;
  readonly query: unknown;
  readonly params: unknown;
}

/**
 * The route's work once its caller is admitted and allowed: input bounds, codecs (422), the
 * handler, the response codec. The HTTP registry and the MCP endpoint both call routes through
 * here, so a tool call is the same request as its HTTP twin.
 */
export async function runRoute(route: Route, actor: Actor, raw: RawRouteInput, req: Request): Promise<RouteAnswer> {
  const input = decodeInput(route, raw);
  if (input._tag === "Left") return routeAnswer(input);
  return routeAnswer(await route.handle({ input: input.right, req, actor }), route.successStatus, route.response);
}

/** The bounds every route's input keeps before its own codec looks at it (422 naming the field). */
function checkBounds(raw: RawRouteInput): Result<void> {
  for (const [where, value] of [
    ["body", raw.body],
    ["query", raw.query],
    ["path", raw.params],
  ] as const) {
    const violation = inputBoundsViolation(value, where === "body" ? "" : where);
    if (violation) return fail(invalid(`Invalid request: ${violation.path} ${violation.message}`, [violation]));
  }
  return ok(undefined);
}

function decodeInput(route: Route, raw: RawRouteInput): Result<RouteInput<unknown, unknown, unknown>> {
  const bounded = checkBounds(raw);
  if (bounded._tag === "Left") return bounded;
  const body = route.body ? decode(route.body, raw.body ?? {}) : ({ _tag: "Right", right: undefined } as const);
  if (body._tag === "Left") return body;
  const query = route.query ? decode(route.query, raw.query) : ({ _tag: "Right", right: undefined } as const);
  if (query._tag === "Left") return query;
  const params = route.params ? decode(route.params, raw.params) : ({ _tag: "Right", right: raw.params } as const);
  if (params._tag === "Left") return params;
  return { _tag: "Right", right: { body: body.right, query: query.right, params: params.right } };
}

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Stripe's rule: every POST (they create or send) honours `Idempotency-Key`, kept 24 hours,
 * unless the route declares a window of its own; routes that come later inherit it.
 */
export const idempotencyOf = (route: Route): { readonly ttlMs: number } | undefined =>
  route.idempotency ?? (route.method === "post" ? { ttlMs: DAY_MS } : undefined);

/** Only routes that take a body parse one: a GET pays nothing for JSON. */
const parseJson = express.json({ limit: "1mb" });

/** A path's first segment, as Express matches it (case-insensitively): `/subscribers/me` -> `subscribers`. */
const firstSegment = (path: string): string => (path.split("/", 2)[1] ?? "").toLowerCase();

/**
 * Mounts `routes` in order, grouped by their first path segment, one router each: a request is
 * matched against the routes of its own segment, not against every route of the API (about 125,
 * which cost a path match each on every request). No route path begins with a parameter, so a
 * request can only ever match routes of its own segment, and the order within one is kept.
 */
export function mountRoutes(router: Router, routes: readonly Route[], container: Container): void {
  const groups = new Map<string, Router>();
  for (const route of routes) {
    const segment = firstSegment(route.path);
    if (segment.startsWith(":")) throw new Error(`route ${route.path}: a path may not begin with a parameter`);
    let group = groups.get(segment);
    if (!group) groups.set(segment, (group = express.Router()));
    mountRoute(group, route, container);
  }
  const dispatch = (req: Request, res: Response, next: NextFunction) => {
    const group = groups.get(firstSegment(req.path));
    if (group) group(req, res, next);
    else next();
  };
  // A router's shape (`stack`, its routes' layers), so what lists an app's routes still sees them.
  router.use(Object.assign(dispatch, { stack: [...groups.values()].flatMap((group) => group.stack) }));
}

function mountRoute(router: Router, route: Route, container: Container): void {
  const limiter = () => container.get<RateLimiter>(RateLimiter);
  const own = route.rateLimit
    ? [
        rateLimit(limiter(), route.rateLimit.budget, {
          units: route.rateLimit.units,
          admission: container.get(FairAdmission),
          companyRefusals: container.get(CompanyRefusals),
        }),
      ]
    : [];
  const body = route.body ? [route.bodyLimit ? express.json({ limit: route.bodyLimit }) : parseJson] : [];
  const window = idempotencyOf(route);
  const idempotent = window ? [idempotency(container.get<IdempotencyStore>(IdempotencyStore), container.get<Clock>(Clock), window)] : [];
  const checkScopes = (_req: Request, res: Response, next: NextFunction) => {
    const allowed = checkAccess(route, actorOf(res));
    if (allowed._tag === "Right") return next();
    sendResult(res, allowed);
  };
  router[route.method](route.path, ...body, ...own, checkScopes, ...idempotent, async (req: Request, res: Response, next: NextFunction) => {
    const actor = actorOf(res);
    if (route.internalErrorMessage) res.locals.internalErrorMessage = route.internalErrorMessage;
    try {
      const answer = await runRoute(route, actor, { body: req.body as unknown, query: req.query, params: req.params }, req);
      res.status(answer.status).json(answer.body);
    } catch (error) {
      next(error);
    }
  });
}
