import type { Container } from "inversify";
import type { JobHandlers } from "../worker/job-handlers.js";

/** Tags and lists: repositories, use cases, job handlers. */
export function bindTagsAndLists(container: Container, handlers: JobHandlers): void {
  void container;
  void handlers;
}
