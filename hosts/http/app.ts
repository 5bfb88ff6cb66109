import express, { type Express } from "express";
import type { Container } from "inversify";
import type { Knex } from "knex";
import { AuthenticateApiKey } from "../../core/api-keys/authenticate-api-key.js";
import { AppLogger, BaseUrl, CapacitySettings, Database } from "../tokens.js";
import { pendingQueries } from "../../adapters/knex/connection.js";
import { DatabaseProbe } from "../../adapters/knex/database-probe.js";
import { FairAdmission } from "../../core/access/fair-admission.js";
import type { Capacity } from "../capacity.js";
import { recentEventLoopDelayMs } from "./event-loop-delay.js";
import { shedLoad } from "./middleware/shed-load.js";
import { buildOpenApi } from "./openapi.js";
import type { Logger } from "../logger.js";
import { authenticate } from "./middleware/authenticate.js";
import { unauthorizedMessageOf } from "./middleware/unauthorized-message.js";
import { errorHandler, notFoundHandler, RETRY_AFTER_SECONDS } from "./middleware/errors.js";
import { requestLog } from "./middleware/request-log.js";
import { rateLimit } from "./middleware/rate-limit.js";
import { CompanyRefusals } from "../../core/access/company-refusals.js";
import { RateLimiter } from "../../core/ports/rate-limiter.js";
import { mountRoutes } from "./route.js";
import { mcpEndpoint } from "./mcp/mcp-endpoint.js";
import { apiRouteModules } from "./routes/index.js";
import { publicSurfaces } from "./public/index.js";
import type { TrustProxy } from "../config.js";

export interface HttpAppOptions {
  /**
   * TRUST_PROXY: which proxies' `X-Forwarded-For` to believe, so `req.ip` (what tracking
   * records) is the visitor's address behind a reverse proxy. Off when omitted.
   */
  readonly trustProxy?: TrustProxy;
}

/** Every route of the API is served under both prefixes, identically. */
export const API_PREFIXES = ["/api/v1", "/v1"] as const;

/**
 * The Express application. Order of the API pipeline: shed load (503 while the server is behind)
 * -> authenticate (failures limited per client address) -> the MCP endpoint (its own budget) ->
 * rate limit (the key's standard budget or the route's own, the company's ceiling and its places
 * in flight) -> the route (which parses a JSON body if it takes one, then checks roles and scopes) -> 404.
 * A database that does not answer anywhere along it becomes a 503 in the error handler.
 */
export function createHttpApp(container: Container, options: HttpAppOptions = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  const trustProxy = options.trustProxy ?? false;
  app.set("trust proxy", Array.isArray(trustProxy) ? [...(trustProxy as readonly string[])] : trustProxy);
  app.set("etag", false);
  const logger = container.get<Logger>(AppLogger);
  // Request lines are info (error for 5xx): with logging off there is nothing to do per request.
  if (logger.isLevelEnabled("error")) app.use(requestLog(logger));

  // Before any API work, and through a probe that does not wait behind queued API queries.
  const probe = container.get<DatabaseProbe>(DatabaseProbe);
  app.get("/health", async (_req, res) => {
    try {
      await probe.check();
      res.json({ ok: true });
    } catch {
      res.setHeader("Retry-After", String(RETRY_AFTER_SECONDS));
      res.status(503).json({ ok: false });
    }
  });

  const apiRoutes = apiRouteModules.flatMap((module) => module.mount(container));
  const openApi = buildOpenApi(apiRoutes, container.get<string>(BaseUrl));
  app.get(
    API_PREFIXES.map((prefix) => `${prefix}/openapi.json`),
    (_req, res) => {
      res.json(openApi);
    },
  );

  for (const surface of publicSurfaces) app.use(surface.mount(container));

  const capacity = container.get<Capacity>(CapacitySettings);
  const knex = container.get<Knex>(Database);
  const limiter = container.get<RateLimiter>(RateLimiter);
  const api = express.Router();
  api.use(
    shedLoad(
      { eventLoopDelayMs: recentEventLoopDelayMs, queuedQueries: () => pendingQueries(knex) },
      { eventLoopDelayMs: capacity.shedEventLoopDelayMs, queuedQueries: capacity.shedDbQueue },
      logger,
    ),
  );
  const companyRefusals = container.get(CompanyRefusals);
  // Routes with a budget of their own come before the standard limiter, so they skip it.
  const ownBudget = apiRoutes.filter((route) => route.rateLimit);
  const standardBudget = apiRoutes.filter((route) => !route.rateLimit);
  api.use(
    authenticate(container.get(AuthenticateApiKey), {
      failures: limiter,
      companyRefusals,
      unauthorizedMessageOf: unauthorizedMessageOf([...ownBudget, ...standardBudget]),
    }),
  );
  // The MCP endpoint spends its own budget; each tool call spends its route's (hosts/http/mcp).
  api.use(mcpEndpoint(container, apiRoutes));
  mountRoutes(api, ownBudget, container);
  api.use(rateLimit(limiter, "standard", { admission: container.get(FairAdmission), companyRefusals }));
  mountRoutes(api, standardBudget, container);
  api.use(notFoundHandler);

  app.use([...API_PREFIXES], api);
  app.use(notFoundHandler);
  app.use(errorHandler(logger));
  return app;
}
