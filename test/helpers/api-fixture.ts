import type { ExecutionContext } from "ava";
import { ManualClock } from "../../adapters/memory/manual-clock.js";
import type { Runtime } from "../../hosts/runtime.js";
import type { Dialect, TestDatabase } from "./databases.js";
import { call, type JsonResponse, type RequestOptions } from "./http-client.js";
import { listen, startTestRuntime, type TestRuntimeOptions, type TestServer } from "./runtime.js";

export interface ApiFixture {
  readonly database: TestDatabase;
  readonly runtime: Runtime;
  readonly server: TestServer;
  readonly clock: ManualClock;
  call(method: string, path: string, options?: RequestOptions): Promise<JsonResponse>;
}

/** A fresh database, the real container and the real Express app on loopback; torn down after the test. */
export async function apiFixture(t: ExecutionContext, dialect: Dialect, options: TestRuntimeOptions = {}): Promise<ApiFixture> {
  const database = await dialect.create();
  const clock = new ManualClock("2026-11-22T10:00:00.000Z");
  const runtime = await startTestRuntime(database, clock, options);
  const server = await listen(runtime);
  t.teardown(async () => {
    await server.close();
    await runtime.close();
    await database.drop();
  });
  return { database, runtime, server, clock, call: (method, path, options) => call(server.url, method, path, options) };
}
