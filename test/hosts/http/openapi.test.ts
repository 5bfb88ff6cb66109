import SwaggerParser from "@apidevtools/swagger-parser";
import test from "ava";
import { createHttpApp } from "../../../hosts/http/app.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";

interface Layer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

/** Every route Express actually serves: app-level ones, and the API router's (mounted under the prefixes). */
function mountedRoutes(app: ReturnType<typeof createHttpApp>): { app: string[]; api: string[] } {
  const list = (stack: Layer[]) =>
    stack.flatMap((layer) =>
      layer.route ? Object.keys(layer.route.methods).flatMap((method) => [layer.route!.path].flat().map((path) => `${method.toUpperCase()} ${path}`)) : [],
    );
  // The API router's routes are grouped in routers of their own (one per first path segment).
  const nested = (stack: Layer[]): string[] => [...list(stack), ...stack.flatMap((layer) => (layer.handle?.stack ? nested(layer.handle.stack) : []))];
  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  // Public surfaces (tracking, webhooks) are routers mounted before the API: it is the last one.
  const apiRouter = stack.findLast((layer) => nested(layer.handle?.stack ?? []).length > 0)!.handle!.stack!;
  return { app: list(stack), api: nested(apiRouter) };
}

test("GET /api/v1/openapi.json needs no key, is valid OpenAPI 3.1, and lists exactly the mounted routes", async (t) => {
  const api = await apiFixture(t, dialects()[0]!);
  const response = await api.call("GET", "/api/v1/openapi.json");
  t.is(response.status, 200);
  const document = response.body;
  t.is(document.openapi, "3.1.0");
  await t.notThrowsAsync(SwaggerParser.validate(structuredClone(document)));
  t.deepEqual((await api.call("GET", "/v1/openapi.json")).body, document);

  const app = createHttpApp(api.runtime.container);
  const mounted = mountedRoutes(app);
  const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => ["get", "post", "put", "patch", "delete"].includes(key))
      .map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`),
  );
  const served = [...mounted.api, ...mounted.app.map((route) => route.replace(/^(\w+) \/(api\/)?v1\//, "$1 /"))];
  t.deepEqual([...new Set(served)].sort(), [...new Set(documented)].sort());
  t.true(mounted.app.includes("GET /api/v1/openapi.json") && mounted.app.includes("GET /v1/openapi.json"));

  const create = document.paths["/api-keys"].post;
  t.deepEqual(create["x-required-scopes"], ["api_keys:manage"]);
  t.is(create.requestBody.content["application/json"].schema.properties.scopes.items.enum.length, 63);
  t.deepEqual(create.responses["200"].content["application/json"].schema.required, ["success", "apiKey", "message", "instructions"]);
  t.is(document["x-scopes"].length, 63);
  t.deepEqual(Object.keys(document.paths["/api-keys/{apiKeyId}"]).sort(), ["delete", "patch"]);
  t.is(document.paths["/api-keys/{apiKeyId}"].delete.parameters[0].name, "apiKeyId");

  // A route that names its 401 message documents it; the others share the standard response.
  t.regex(document.paths["/subscribers/{email}/notes"].get.responses["401"].description, /'Unauthorized'/);
  t.deepEqual(document.paths["/subscribers/me"].get.responses["401"], { $ref: "#/components/responses/E401" });
});
