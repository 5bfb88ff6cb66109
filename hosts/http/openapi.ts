import { SCOPE_CATALOG } from "../../core/access/scopes.js";
import { RATE_BUDGETS } from "../../core/access/rate-budgets.js";
import { toJsonSchema, type JsonSchema } from "../../core/shared/json-schema.js";
import { idempotencyOf, type Route } from "./route.js";

const STATUS_TEXT: Record<number, string> = {
  400: "Invalid input or invalid state",
  401: "Missing or invalid API key",
  403: "Missing scope, no company selected, or insufficient role",
  404: "Not found",
  409: "Conflict",
  422: "The body, query or path does not match its types",
  429: "Rate limited (Retry-After, RateLimit-* headers)",
  500: "Internal error",
  503: "The database is temporarily unavailable (code SERVICE_UNAVAILABLE)",
};

/** Every route has these, whatever it declares. */
const COMMON_ERRORS = [401, 429, 500, 503];

const errorResponse = (description: string): JsonSchema => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

const openApiPath = (expressPath: string): string => expressPath.replace(/:(\w+)/g, "{$1}");

const operationId = (route: Route): string =>
  route.method +
  route.path
    .split("/")
    .filter(Boolean)
    .map((part) =>
      part.startsWith(":") ? `By${part[1]!.toUpperCase()}${part.slice(2)}` : part.replace(/(^|[-_])(\w)/g, (_, __, c: string) => c.toUpperCase()),
    )
    .join("");

function parameters(route: Route): JsonSchema[] {
  const path = route.params ? (toJsonSchema(route.params).properties as Record<string, JsonSchema>) : {};
  const query = route.query ? (toJsonSchema(route.query) as { properties?: Record<string, JsonSchema>; required?: string[] }) : {};
  return [
    ...Object.entries(path).map(([name, schema]) => ({ name, in: "path", required: true, schema })),
    ...Object.entries(query.properties ?? {}).map(([name, schema]) => ({ name, in: "query", required: (query.required ?? []).includes(name), schema })),
    { $ref: "#/components/parameters/CompanyId" },
    ...(idempotencyOf(route) ? [{ $ref: "#/components/parameters/IdempotencyKey" }] : []),
  ];
}

function operation(route: Route): JsonSchema {
  const payload = toJsonSchema(route.response) as { properties?: Record<string, JsonSchema>; required?: string[] };
  const success = {
    type: "object",
    properties: { success: { const: true }, ...payload.properties },
    required: ["success", ...(payload.required ?? [])],
  };
  const errors = [
    ...new Set([...COMMON_ERRORS, ...(route.scopes.length > 0 || route.roles ? [403] : []), ...(route.body ? [422] : []), ...(route.errors ?? [])]),
  ].sort();
  return {
    operationId: operationId(route),
    summary: route.summary,
    tags: [route.tag],
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    "x-required-scopes": route.scopes,
    ...(route.roles ? { "x-required-roles": route.roles.allowed } : {}),
    parameters: parameters(route),
    ...(route.body ? { requestBody: { required: false, content: { "application/json": { schema: toJsonSchema(route.body) } } } } : {}),
    responses: {
      [String(route.successStatus ?? 200)]: { description: "Success", content: { "application/json": { schema: success } } },
      ...Object.fromEntries(errors.map((status) => [String(status), { $ref: `#/components/responses/E${status}` }])),
      ...(route.unauthorizedMessage ? { "401": errorResponse(`${STATUS_TEXT[401]}: error '${route.unauthorizedMessage}'`) } : {}),
    },
  };
}

/**
 * The OpenAPI 3.1 description, generated from the same route registry (and codecs) that
 * mounts and decodes the routes, so it cannot drift from what the server does.
 */
export function buildOpenApi(routes: readonly Route[], baseUrl: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) (paths[openApiPath(route.path)] ??= {})[route.method] = operation(route);
  paths["/openapi.json"] = {
    get: {
      operationId: "getOpenApi",
      summary: "This description (no key needed)",
      tags: ["Platform"],
      security: [],
      responses: { "200": { description: "The OpenAPI document", content: { "application/json": { schema: { type: "object" } } } } },
    },
  };
  paths["/health"] = {
    servers: [{ url: baseUrl }],
    get: {
      operationId: "getHealth",
      summary: "Whether the server and its database answer (no key needed)",
      tags: ["Platform"],
      security: [],
      responses: {
        "200": {
          description: "Healthy",
          content: { "application/json": { schema: { type: "object", properties: { ok: { const: true } }, required: ["ok"] } } },
        },
        "503": {
          description: "The database does not answer",
          content: { "application/json": { schema: { type: "object", properties: { ok: { const: false } }, required: ["ok"] } } },
        },
      },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "Lifecycle Email Service API",
      version: "1.0.0",
      description:
        "Multi-tenant lifecycle email API. Every route is served under /api/v1 and, identically, under the legacy prefix /v1 " +
        `(one shared rate budget per key: ${RATE_BUDGETS.standard.map((w) => `${w.points} per ${w.seconds} s`).join(" and ")}). ` +
        "Keys carry scopes from the catalog in x-scopes. " +
        "POST /api/v1/mcp is a Model Context Protocol server (Streamable HTTP, JSON-RPC) with one tool per operation described here.",
    },
    servers: [{ url: `${baseUrl}/api/v1` }, { url: `${baseUrl}/v1`, description: "Legacy alias with the same behaviour" }],
    tags: [...new Set([...routes.map((route) => route.tag), "Platform"])].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "Authorization: Bearer <API key>" },
        apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key" },
      },
      parameters: {
        IdempotencyKey: {
          name: "Idempotency-Key",
          in: "header",
          required: false,
          description: "Replays the first answer to a retry of the same request for 24 hours; the same key with another body is 409",
          schema: { type: "string", minLength: 1, maxLength: 255 },
        },
        CompanyId: {
          name: "x-company-id",
          in: "header",
          required: false,
          description: "Selects another company the key's person belongs to",
          schema: { type: "string" },
        },
      },
      schemas: {
        Error: {
          type: "object",
          properties: {
            success: { const: false },
            error: { type: "string" },
            code: { type: "string" },
            errors: {
              type: "array",
              items: { type: "object", properties: { path: { type: "string" }, message: { type: "string" } }, required: ["path", "message"] },
            },
          },
          required: ["error"],
        },
      },
      responses: Object.fromEntries(Object.entries(STATUS_TEXT).map(([status, description]) => [`E${status}`, errorResponse(description)])),
    },
    "x-scopes": SCOPE_CATALOG,
  };
}
