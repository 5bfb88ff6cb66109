import type { Logger } from "../logger.js";

/**
 * The background worker. Capabilities register job handlers; the worker claims due jobs from
 * the durable queue and runs up to `concurrency` at once. No capability has jobs yet, so a
 * running worker idles until the queue arrives (shared/ARCHITECTURE.md, Background work).
 */
export class Worker {
  private running = false;
  /** A daemon stays up until it is told to stop, even while it has nothing to do. */
  private keepAlive: NodeJS.Timeout | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly concurrency: number,
  ) {}

  start(): void {
    this.running = true;
    this.keepAlive = setInterval(() => undefined, 60_000);
    this.logger.info({ concurrency: this.concurrency, handlers: 0 }, "worker started");
  }

  /** Lets running jobs finish, then returns. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.keepAlive);
    this.logger.info("worker stopped");
  }
}
