import type { Container } from "inversify";
import type { JobHandlers } from "../worker/job-handlers.js";

/** Subscribers, their tags and lists, and notes: repositories, use cases, job handlers. */
export function bindSubscribers(container: Container, handlers: JobHandlers): void {
  void container;
  void handlers;
}
