import type { Container } from "inversify";
import type { JobHandlers } from "../worker/job-handlers.js";

/** Segments: repositories, use cases, job handlers. */
export function bindSegments(container: Container, handlers: JobHandlers): void {
  void container;
  void handlers;
}
