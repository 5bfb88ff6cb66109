import type { Container } from "inversify";
import type { JobHandlers } from "../worker/job-handlers.js";

/** Bulk tags and asynchronous subscriber operations: repositories, use cases, job handlers. */
export function bindSubscriberOperations(container: Container, handlers: JobHandlers): void {
  void container;
  void handlers;
}
