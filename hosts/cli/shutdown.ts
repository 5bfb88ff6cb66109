import type { Logger } from "../logger.js";

/** On SIGTERM or SIGINT: run `stop` once, then exit 0 (1 if stopping failed). */
export function onShutdown(logger: Logger, stop: () => Promise<void>): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", handle);
  process.once("SIGINT", handle);
}
