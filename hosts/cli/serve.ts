import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { createHttpApp } from "../http/app.js";
import { loadConfig, type ConfigOverrides } from "../config.js";
import { createLogger } from "../logger.js";
import { startRuntime } from "../runtime.js";
import { createWorker } from "../worker/create-worker.js";
import { onShutdown } from "./shutdown.js";
import { runtimeOptions } from "./runtime-options.js";

export interface ServeOptions extends ConfigOverrides {
  readonly worker: boolean;
}

/** `lifecycle serve`: the HTTP API, plus the worker in-process unless --no-worker. */
export async function serve(options: ServeOptions): Promise<void> {
  const config = loadConfig(process.env, options);
  const logger = createLogger(config.logLevel);
  const runtime = await startRuntime(runtimeOptions(config, logger));
  const server = createHttpApp(runtime.container, { trustProxy: config.trustProxy }).listen(config.port, config.host);
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const worker = options.worker ? createWorker(runtime.container, { concurrency: 1 }) : null;

  // Handlers go in before anything announces readiness: until a listener exists, a SIGTERM
  // would kill the process outright.
  onShutdown(logger, async () => {
    // close() stops accepting, closes idle keep-alive sockets and waits for in-flight requests.
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const force = setTimeout(() => server.closeAllConnections(), 10_000);
    await Promise.all([closed, worker?.stop()]);
    clearTimeout(force);
    await runtime.close();
  });
  await worker?.start();
  process.stdout.write(`listening on http://${config.host}:${port}\n`);
  logger.info({ host: config.host, port, worker: Boolean(worker) }, "server started");
}
