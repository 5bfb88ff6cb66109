import test from "ava";
import * as io from "io-ts";
import express from "express";
import { createCompanyFixture } from "../../../fixtures/companies.js";
import { AuthenticateApiKey } from "../../../core/api-keys/authenticate-api-key.js";
import { ok } from "../../../core/shared/result.js";
import { errorHandler, notFoundHandler } from "../../../hosts/http/middleware/errors.js";
import { authenticate } from "../../../hosts/http/middleware/authenticate.js";
import { mountRoutes, type Route } from "../../../hosts/http/route.js";
import { createLogger } from "../../../hosts/logger.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects } from "../../helpers/databases.js";
import { call } from "../../helpers/http-client.js";
import { withSearchPath } from "../../helpers/databases.js";
import { listen, startTestRuntime } from "../../helpers/runtime.js";
import { TcpProxy } from "../../helpers/tcp-proxy.js";

const [sqlite] = dialects();

test("GET /health answers without a key, and 503 when the database is gone", async (t) => {
  const api = await apiFixture(t, sqlite!);
  const healthy = await api.call("GET", "/health");
  t.is(healthy.status, 200);
  t.deepEqual(healthy.body, { ok: true });
  await api.runtime.knex.destroy();
  const down = await api.call("GET", "/health");
  t.is(down.status, 503);
  t.is(down.headers.get("retry-after"), "5");
  t.deepEqual(down.body, { ok: false });
});

test("malformed JSON is a 400 in the envelope; an empty JSON body is accepted", async (t) => {
  const api = await apiFixture(t, sqlite!);
  const acme = await createCompanyFixture(api.runtime.container);
  const malformed = await api.call("POST", "/api/v1/api-keys", { key: acme.ownerKey, rawBody: '{"name": "x",' });
  t.is(malformed.status, 400);
  t.deepEqual(malformed.body, { success: false, error: "Malformed JSON in request body" });
  const keys = await api.runtime.knex("api_keys").count({ n: "*" });
  t.is(Number(keys[0]?.n), 1, "nothing was created");

  // The official client sends Content-Type: application/json with no body on action POSTs.
  const empty = await api.call("POST", "/api/v1/api-keys", { key: acme.ownerKey, rawBody: "" });
  t.is(empty.status, 200);
  t.is(empty.body.apiKey.name, "Default integration");
});

test("unknown routes are a 404 in the envelope (after authentication under the API prefixes)", async (t) => {
  const api = await apiFixture(t, sqlite!);
  const acme = await createCompanyFixture(api.runtime.container);
  t.deepEqual((await api.call("GET", "/api/v1/nothing-here", { key: acme.ownerKey })).body, { success: false, error: "Not found" });
  t.is((await api.call("GET", "/api/v1/nothing-here")).status, 401);
  t.deepEqual((await api.call("GET", "/elsewhere")).body, { success: false, error: "Not found" });
});

test("a route needing several scopes lists every missing one, comma-separated; crashes stay private", async (t) => {
  const api = await apiFixture(t, sqlite!);
  const acme = await createCompanyFixture(api.runtime.container);
  const limited = await api.call("POST", "/api/v1/api-keys", { key: acme.ownerKey, body: { scopes: ["subscribers:read"] } });
  const routes: Route[] = [
    {
      method: "post",
      path: "/exports",
      scopes: ["data_exports:write", "subscribers:read", "analytics:read"],
      summary: "test route",
      tag: "Test",
      response: io.type({ done: io.boolean }),
      handle: async () => ok({ done: true }),
    },
    {
      method: "get",
      path: "/crash",
      scopes: [],
      summary: "test route",
      tag: "Test",
      response: io.type({}),
      handle: async () => {
        throw new Error("connection string postgres://admin:hunter2@db");
      },
    },
  ];
  const app = express();
  const router = express.Router();
  router.use(authenticate(api.runtime.container.get(AuthenticateApiKey)));
  mountRoutes(router, routes, api.runtime.container);
  app.use("/api/v1", router);
  app.use(notFoundHandler);
  app.use(errorHandler(createLogger("silent")));
  const server = app.listen(0, "127.0.0.1");
  t.teardown(() => server.close());
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const denied = await call(url, "POST", "/api/v1/exports", { key: limited.body.apiKey.key, body: {} });
  t.is(denied.status, 403);
  t.deepEqual(denied.body, { success: false, error: "API key is missing required scope: data_exports:write, analytics:read" });
  t.deepEqual((await call(url, "POST", "/api/v1/exports", { key: acme.ownerKey, body: {} })).body, { success: true, done: true });

  const crashed = await call(url, "GET", "/api/v1/crash", { key: acme.ownerKey });
  t.is(crashed.status, 500);
  t.deepEqual(crashed.body, { success: false, error: "Internal server error" });
});

const postgres = dialects().find((dialect) => dialect.name === "postgres");

if (postgres) {
  test("postgres: while the database is down every API route answers 503, and all recovers when it returns", async (t) => {
    const database = await postgres.create();
    t.teardown(() => database.drop());
    const direct = new URL(database.url);
    const proxy = new TcpProxy(direct.hostname, Number(direct.port || 5432));
    await proxy.start();
    t.teardown(() => proxy.stop());
    const viaProxy = new URL(process.env.TEST_DATABASE_URL!);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    const runtime = await startTestRuntime({ ...database, url: withSearchPath(viaProxy.toString(), database.schema!) });
    const server = await listen(runtime);
    t.teardown(async () => {
      await server.close();
      await runtime.close();
    });
    const acme = await createCompanyFixture(runtime.container);
    const key = { key: acme.ownerKey };
    t.is((await call(server.url, "GET", "/api/v1/api-keys", key)).status, 200);

    await proxy.stop();
    const unavailable = { success: false, error: "The service is temporarily unavailable. Please retry shortly.", code: "SERVICE_UNAVAILABLE" };
    for (const [method, path] of [
      ["GET", "/api/v1/api-keys"],
      ["DELETE", `/api/v1/api-keys/${acme.ownerKeyId}`],
      ["GET", "/v1/subscribers/me"],
    ] as const) {
      const response = await call(server.url, method, path, key);
      t.is(response.status, 503, `${method} ${path}`);
      t.deepEqual(response.body, unavailable);
      t.is(response.headers.get("retry-after"), "5", `${method} advertises a retry`);
    }
    for (const [method, path] of [
      ["POST", "/api/v1/api-keys"],
      ["PATCH", `/api/v1/api-keys/${acme.ownerKeyId}`],
    ] as const) {
      const response = await call(server.url, method, path, { ...key, body: { name: "x" } });
      t.is(response.status, 503, `${method} ${path}`);
      t.deepEqual(response.body, unavailable);
      t.is(response.headers.get("retry-after"), null, `${method} never advertises a retry`);
    }
    t.deepEqual((await call(server.url, "GET", "/health")).body, { ok: false });

    await proxy.start();
    const recovered = await call(server.url, "GET", "/api/v1/api-keys", key);
    t.is(recovered.status, 200);
    t.deepEqual(
      recovered.body.apiKeys.map((k: { id: string }) => k.id),
      [acme.ownerKeyId],
      "the DELETE during the outage changed nothing",
    );
    t.deepEqual((await call(server.url, "GET", "/health")).body, { ok: true });
  });
}
