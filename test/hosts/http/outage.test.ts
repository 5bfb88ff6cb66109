import test from "ava";
import { createCompanyFixture } from "../../../fixtures/companies.js";
import { dialects, withSearchPath } from "../../helpers/databases.js";
import { call } from "../../helpers/http-client.js";
import { listen, startTestRuntime } from "../../helpers/runtime.js";
import { TcpProxy } from "../../helpers/tcp-proxy.js";

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
    t.deepEqual(recovered.body.apiKeys.map((k: { id: string }) => k.id), [acme.ownerKeyId], "the DELETE during the outage changed nothing");
    t.deepEqual((await call(server.url, "GET", "/health")).body, { ok: true });
  });
}
