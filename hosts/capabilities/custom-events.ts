import type { Container } from "inversify";
import type { JobHandlers } from "../worker/job-handlers.js";

/** Custom events and their definitions: repositories, use cases, job handlers. */
export function bindCustomEvents(container: Container, handlers: JobHandlers): void {
  void container;
  void handlers;
}
