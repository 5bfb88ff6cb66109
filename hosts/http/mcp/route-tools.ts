import { toJsonSchema, type JsonSchema } from "../../../core/shared/json-schema.js";
import type { RawRouteInput, Route } from "../route.js";
import { MAX_TOOL_NAME_LENGTH, toolNameOf } from "./tool-names.js";

/** One API operation as an MCP tool: its arguments are the route's path, query and body fields. */
export interface RouteTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: { readonly type: "object"; readonly properties: Record<string, JsonSchema>; readonly required?: string[] };
  readonly route: Route;
  /** Splits a call's arguments into the route's raw input, as an HTTP request would carry them. */
  input(args: Record<string, unknown>): RawRouteInput;
}

interface ObjectSchema {
  readonly properties: Record<string, JsonSchema>;
  readonly required: string[];
}

const objectSchema = (schema: JsonSchema): ObjectSchema | null =>
  schema.type === "object" && schema.properties && typeof schema.properties === "object"
    ? { properties: schema.properties as Record<string, JsonSchema>, required: (schema.required as string[] | undefined) ?? [] }
    : null;

/**
 * A body's fields as one object: the body's own, or those of every shape of a body that takes
 * one of several (`anyOf`: only the fields all shapes require stay required) or all of them (`allOf`).
 */
function bodyFields(schema: JsonSchema): ObjectSchema | null {
  const direct = objectSchema(schema);
  if (direct) return direct;
  const any = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : null;
  const all = Array.isArray(schema.allOf) ? (schema.allOf as JsonSchema[]) : null;
  const members = (any ?? all ?? []).map(bodyFields);
  if (members.length === 0 || members.some((member) => member === null)) return null;
  const shapes = members as ObjectSchema[];
  const properties = Object.assign({}, ...[...shapes].reverse().map((shape) => shape.properties)) as Record<string, JsonSchema>;
  const required = any
    ? shapes[0]!.required.filter((name) => shapes.every((shape) => shape.required.includes(name)))
    : [...new Set(shapes.flatMap((shape) => shape.required))];
  return { properties, required };
}

/** Path and query values travel as text in HTTP; a tool's arguments may be numbers or booleans. */
const asText = (value: unknown): unknown =>
  Array.isArray(value) ? value.map(asText) : typeof value === "number" || typeof value === "boolean" ? String(value) : value;

const pick = (args: Record<string, unknown>, names: readonly string[], convert: (value: unknown) => unknown = (value) => value) =>
  Object.fromEntries(names.filter((name) => args[name] !== undefined).map((name) => [name, convert(args[name])]));

function describe(route: Route): string {
  const access = [
    route.scopes.length > 0 ? `Requires scope${route.scopes.length === 1 ? "" : "s"} ${route.scopes.join(", ")}.` : "",
    route.roles ? `Only for team roles ${route.roles.allowed.join(", ")}.` : "",
  ].filter(Boolean);
  return [route.summary.trim().replace(/\.?$/, "."), `(${route.method.toUpperCase()} /api/v1${route.path})`, ...access].join(" ");
}

/**
 * The tool of a route, from the same codecs that decode its HTTP input and describe it in
 * OpenAPI. Path parameters and query parameters are top-level arguments; so are the body's
 * fields, unless the body is not made of objects or shares a name with a parameter: then it is
 * the argument `body`.
 */
export function routeTool(route: Route, name = toolNameOf(route)): RouteTool {
  // Every parameter of the path is a required argument, described by the route's codec where it has one.
  const pathNames = route.path
    .split("/")
    .filter((segment) => segment.startsWith(":"))
    .map((segment) => segment.slice(1));
  const codecParams = route.params ? objectSchema(toJsonSchema(route.params)) : null;
  const params: ObjectSchema = {
    properties: Object.fromEntries(pathNames.map((name) => [name, codecParams?.properties[name] ?? { type: "string", minLength: 1 }])),
    required: pathNames,
  };
  const query = route.query ? objectSchema(toJsonSchema(route.query)) : null;
  const bodySchema = route.body ? toJsonSchema(route.body) : null;
  const paramNames = pathNames;
  const queryNames = Object.keys(query?.properties ?? {});
  const taken = new Set([...paramNames, ...queryNames]);
  const flatBody = bodySchema ? bodyFields(bodySchema) : null;
  const bodyIsFlat = flatBody !== null && Object.keys(flatBody.properties).every((name) => !taken.has(name));

  const properties: Record<string, JsonSchema> = { ...params.properties, ...query?.properties };
  const required = [...paramNames, ...(query?.required ?? [])];
  if (bodySchema && bodyIsFlat) {
    Object.assign(properties, flatBody.properties);
    required.push(...flatBody.required);
  } else if (bodySchema) {
    properties.body = { ...bodySchema, description: "The request body (its fields share names with the path or query parameters)" };
    if (flatBody === null || flatBody.required.length > 0) required.push("body");
  }
  const bodyNames = bodyIsFlat ? Object.keys(flatBody.properties) : [];

  return {
    name,
    description: describe(route),
    inputSchema: { type: "object", properties, ...(required.length > 0 ? { required: [...new Set(required)] } : {}) },
    route,
    input: (args) => ({
      params: pick(args, paramNames, asText),
      query: pick(args, queryNames, asText),
      body: !bodySchema ? undefined : bodyIsFlat ? pick(args, bodyNames) : args.body,
    }),
  };
}

/**
 * One tool per operation of the registry (aliases are the same operation). Two operations with
 * the same short derived name both take their full one (every parameter named); names are
 * checked unique and short enough.
 */
export function routeTools(routes: readonly Route[]): RouteTool[] {
  const operations = routes.filter((route) => route.aliasOf === undefined);
  const shortNames = operations.map((route) => toolNameOf(route));
  const tools = operations.map((route, i) =>
    routeTool(route, shortNames.indexOf(shortNames[i]!) === shortNames.lastIndexOf(shortNames[i]!) ? shortNames[i] : toolNameOf(route, true)),
  );
  const seen = new Map<string, Route>();
  for (const tool of tools) {
    const before = seen.get(tool.name);
    if (before) throw new Error(`MCP tool name ${tool.name} is given to both ${before.method} ${before.path} and ${tool.route.method} ${tool.route.path}`);
    if (tool.name.length > MAX_TOOL_NAME_LENGTH || !/^[A-Za-z0-9_-]+$/.test(tool.name)) throw new Error(`MCP tool name ${tool.name} is not usable`);
    seen.set(tool.name, tool.route);
  }
  return tools;
}
