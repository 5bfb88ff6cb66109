import type { Container } from "inversify";
import type { JobHandlers } from "../worker/job-handlers.js";

/** Accounts, account events and organization-ID suggestions: repositories, use cases, job handlers. */
export function bindAccounts(container: Container, handlers: JobHandlers): void {
  void container;
  void handlers;
}
