import type { Logger } from "../logger.js";

/** How long in-flight work may take to finish before the process gives up on it. */
export const SHUTDOWN_DEADLINE_MS = 30_000;

/**
 * On SIGTERM or SIGINT: run `stop` once, then exit 0 (1 if stopping failed or outlived the
 * deadline). A second signal while stopping is ignored, not fatal.
 */
export function onShutdown(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    setTimeout(() => {
      logger.error({ deadlineMs: SHUTDOWN_DEADLINE_MS }, "shutdown did not finish in time");
      process.exit(1);
    }, SHUTDOWN_DEADLINE_MS).unref();
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", handle);
  process.on("SIGINT", handle);
}
