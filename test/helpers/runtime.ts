import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Clock } from "../../core/ports/clock.js";
import { createHttpApp, type HttpAppOptions } from "../../hosts/http/app.js";
import { createLogger } from "../../hosts/logger.js";
import { startRuntime, type Runtime, type RuntimeOptions } from "../../hosts/runtime.js";
import { schemaWork, type TestDatabase } from "./databases.js";

export const BASE_URL = "http://lifecycle.test";

/** Options a test may add to the runtime (e.g. `allowPrivateDestinations` for loopback peers). */
export type TestRuntimeOptions = Partial<Omit<RuntimeOptions, "databaseUrl" | "logger" | "baseUrl" | "clock">>;

/**
 * Shedding on event-loop delay is off unless a test turns it on: a test process that is busy
 * setting up its own databases must not refuse its own requests.
 */
export const TEST_CAPACITY = { shedEventLoopDelayMs: 0 } as const;

export function startTestRuntime(database: TestDatabase, clock?: Clock, options: TestRuntimeOptions = {}): Promise<Runtime> {
  const start = () =>
    startRuntime({
      ...options,
      capacity: { ...TEST_CAPACITY, ...options.capacity },
      databaseUrl: database.url,
      logger: createLogger("silent"),
      baseUrl: BASE_URL,
      ...(clock ? { clock } : {}),
    });
  // Starting migrates a new schema: on Postgres, a few at a time (see schemaWork).
  return database.schema ? schemaWork(start) : start();
}

export interface TestServer {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** The real Express app on an ephemeral loopback port. */
export async function listen(runtime: Runtime, options: HttpAppOptions = {}): Promise<TestServer> {
  const server = createHttpApp(runtime.container, options).listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
