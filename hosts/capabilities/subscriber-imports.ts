import type { Container } from "inversify";
import type { JobHandlers } from "../worker/job-handlers.js";

/** Subscriber imports (API, job and CLI): repositories, use cases, job handlers. */
export function bindSubscriberImports(container: Container, handlers: JobHandlers): void {
  void container;
  void handlers;
}
