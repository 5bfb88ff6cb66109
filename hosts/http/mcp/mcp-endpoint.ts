import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { Container } from "inversify";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { isDatabaseUnavailable } from "../../../adapters/knex/database-unavailable.js";
import { isStatementTimeout } from "../../../adapters/knex/statement-timeout.js";
import { CompanyRefusals } from "../../../core/access/company-refusals.js";
import { FairAdmission } from "../../../core/access/fair-admission.js";
import { RateLimiter } from "../../../core/ports/rate-limiter.js";
import type { Actor } from "../../../core/shared/actor.js";
import type { Logger } from "../../logger.js";
import { AppLogger } from "../../tokens.js";
import { actorOf } from "../actor.js";
import { INTERNAL_ERROR_MESSAGE } from "../error-body.js";
import { rateLimit, rateLimitMessage, type RefusalBody } from "../middleware/rate-limit.js";
import { checkAccess, routeAnswer, runRoute, type RouteAnswer, type Route } from "../route.js";
import { routeTools, type RouteTool } from "./route-tools.js";

/** JSON-RPC's implementation-defined server errors: -32000 to -32099. */
export const RATE_LIMITED = -32029;
const PARSE_ERROR = -32700;
/** A tool call may carry what its route takes: bulk imports take up to 16 MB. */
const BODY_LIMIT = "16mb";

const SERVER_INFO = { name: "lifecycle-email", version: "1.0.0" } as const;
const INSTRUCTIONS =
  "Tools of the Lifecycle Email API, one per operation, acting as the API key that connects. " +
  "Each result is the API's JSON answer; a failed call is a tool error whose text carries the status and the API's error " +
  "(a missing scope names it; a 429 says when to retry).";

const jsonRpcError = (code: number, message: string, id: unknown = null) => ({ jsonrpc: "2.0", error: { code, message }, id });

/** The id of a single JSON-RPC request, so that a refusal answers it (null for a batch or a notification). */
const requestIdOf = (body: unknown): unknown =>
  body && typeof body === "object" && !Array.isArray(body) && "id" in body ? ((body as { id?: unknown }).id ?? null) : null;

const rateLimited: RefusalBody = (message, res) => jsonRpcError(RATE_LIMITED, message, res.locals.mcpRequestId);

/** A tool's answer: the API's envelope as text (and as structured content), an error when its status is. */
const toolResult = (answer: RouteAnswer): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(answer.status >= 400 ? { status: answer.status, ...answer.body } : answer.body) }],
  structuredContent: answer.body,
  ...(answer.status >= 400 ? { isError: true } : {}),
});

/**
 * The MCP endpoint (`/api/v1/mcp` and `/v1/mcp`): a stateless Streamable HTTP server whose
 * tools are generated from the route registry. The request is authenticated like every API
 * request (it is mounted behind the same middleware) and spends the MCP budget (spec, Limits);
 * each tool call then spends its route's budget (the standard one, or its own), checks the route's
 * roles and scopes and runs the route, exactly as the HTTP request would. A refused MCP request is
 * a JSON-RPC error (spec, Errors §6); a refused tool call is a tool error carrying the API's answer.
 */
export function mcpEndpoint(container: Container, routes: readonly Route[]): Router {
  const tools = routeTools(routes);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  const limiter = container.get<RateLimiter>(RateLimiter);
  const logger = container.get<Logger>(AppLogger);

  const parseJson = express.json({ limit: BODY_LIMIT });
  const parse = (req: Request, res: Response, next: NextFunction) =>
    parseJson(req, res, (error?: unknown) => {
      if (!error) {
        res.locals.mcpRequestId = requestIdOf(req.body);
        return next();
      }
      const tooLarge = (error as { type?: string }).type === "entity.too.large";
      res.status(tooLarge ? 413 : 400).json(jsonRpcError(PARSE_ERROR, tooLarge ? `Request body larger than ${BODY_LIMIT}` : "Parse error: malformed JSON"));
    });

  /** Spends the route's budget (as its HTTP request would), checks access, runs it. */
  const callTool = async (tool: RouteTool, args: Record<string, unknown>, actor: Actor, req: Request): Promise<CallToolResult> => {
    const raw = tool.input(args);
    const budget = tool.route.rateLimit?.budget ?? "standard";
    const units = Math.max(1, tool.route.rateLimit?.units?.({ body: raw.body }) ?? 1);
    const decision = (units === 1 ? limiter.refusal(budget, actor.apiKeyId) : undefined) ?? (await limiter.consume(budget, actor.apiKeyId, units));
    if (!decision.allowed) {
      const retryAfter = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      return toolResult({ status: 429, body: { success: false, error: rateLimitMessage(decision, "API key", retryAfter), retryAfter } });
    }
    const allowed = checkAccess(tool.route, actor);
    if (allowed._tag === "Left") return toolResult(routeAnswer(allowed));
    try {
      const answer = await runRoute(tool.route, actor, raw, req);
      logger.debug({ tool: tool.name, status: answer.status, companyId: actor.companyId, apiKeyId: actor.apiKeyId }, "MCP tool call");
      return toolResult(answer);
    } catch (error) {
      if (isDatabaseUnavailable(error) || isStatementTimeout(error)) {
        logger.warn({ err: error, tool: tool.name }, "database unavailable during an MCP tool call");
        return toolResult({
          status: 503,
          body: { success: false, error: "The service is temporarily unavailable. Please retry shortly.", code: "SERVICE_UNAVAILABLE" },
        });
      }
      logger.error({ err: error, tool: tool.name }, "MCP tool call failed");
      return toolResult({ status: 500, body: { success: false, error: tool.route.internalErrorMessage ?? INTERNAL_ERROR_MESSAGE } });
    }
  };

  const serve = async (req: Request, res: Response) => {
    const actor = actorOf(res);
    const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = byName.get(request.params.name);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      return callTool(tool, request.params.arguments ?? {}, actor, req);
    });
    // Stateless: one server and transport per request, answered as plain JSON (no stream to keep open).
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.once("close", () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      logger.error({ err: error }, "MCP request failed");
      if (!res.headersSent) res.status(500).json(jsonRpcError(ErrorCode.InternalError, INTERNAL_ERROR_MESSAGE, res.locals.mcpRequestId));
    }
  };

  /** Only `/mcp` itself, and only POST: stateless, there is no stream to open (GET) nor session to end (DELETE). */
  const onlyPost = (req: Request, res: Response, next: NextFunction) => {
    if (req.path !== "/") return next("router");
    if (req.method === "POST") return next();
    res.setHeader("Allow", "POST");
    res.status(405).json(jsonRpcError(-32000, "Method not allowed: this MCP server is stateless; send JSON-RPC messages with POST"));
  };

  // Middleware rather than routes: the endpoint speaks JSON-RPC, not REST, and is no operation of the OpenAPI description.
  const router = express.Router();
  router.use(
    "/mcp",
    onlyPost,
    parse,
    rateLimit(limiter, "mcp", { admission: container.get(FairAdmission), companyRefusals: container.get(CompanyRefusals), refusalBody: rateLimited }),
    serve,
  );
  return router;
}
