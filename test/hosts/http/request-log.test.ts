import { Writable } from "node:stream";
import test from "ava";
import { createCompanyFixture } from "../../../fixtures/companies.js";
import { createLogger } from "../../../hosts/logger.js";
import { startRuntime } from "../../../hosts/runtime.js";
import { dialects } from "../../helpers/databases.js";
import { call } from "../../helpers/http-client.js";
import { listen, TEST_CAPACITY } from "../../helpers/runtime.js";

test("one JSON line per request with request id, company, key id, status and duration, never the key", async (t) => {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      done();
    },
  });
  const database = await dialects()[0]!.create();
  const runtime = await startRuntime({ databaseUrl: database.url, logger: createLogger("info", sink), baseUrl: "http://localhost", capacity: TEST_CAPACITY });
  const server = await listen(runtime);
  t.teardown(async () => {
    await server.close();
    await runtime.close();
    await database.drop();
  });
  const acme = await createCompanyFixture(runtime.container);
  lines.length = 0;

  const ok = await call(server.url, "GET", "/api/v1/api-keys?limit=5", { key: acme.ownerKey });
  const denied = await fetch(`${server.url}/api/v1/account`, { headers: { authorization: `Bearer ${acme.ownerKey}x`, "x-request-id": "req-42" } });
  t.is(denied.headers.get("x-request-id"), "req-42");
  await new Promise((resolve) => setImmediate(resolve));

  const entries = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === "request completed");
  t.is(entries.length, 2);
  const [first, second] = entries;
  t.is(first.req.method, "GET");
  t.is(first.req.path, "/api/v1/api-keys");
  t.is(first.res.status, 200);
  t.is(first.companyId, acme.companyId);
  t.is(first.apiKeyId, acme.ownerKeyId);
  t.is(typeof first.responseTime, "number");
  t.is(first.req.id, ok.headers.get("x-request-id"));
  t.is(second.req.id, "req-42");
  t.is(second.res.status, 401);
  t.false("companyId" in second);
  t.false(
    lines.some((line) => line.includes(acme.ownerKey.slice(5))),
    "no line holds the key",
  );
  t.false(lines.some((line) => /authorization/i.test(line)));
});
