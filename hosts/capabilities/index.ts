import type { Container } from "inversify";
import type { JobHandlers } from "../worker/job-handlers.js";
import { bindSubscribers } from "./subscribers.js";
import { bindSubscriberImports } from "./subscriber-imports.js";
import { bindSubscriberOperations } from "./subscriber-operations.js";
import { bindTagsAndLists } from "./tags-and-lists.js";
import { bindCustomEvents } from "./custom-events.js";
import { bindSegments } from "./segments.js";
import { bindAccounts } from "./accounts.js";
import { bindMetrics } from "./metrics.js";
import { bindDelivery } from "./delivery.js";
import { bindTracking } from "./tracking.js";
import { bindCompany } from "./company.js";
import { bindEmails } from "./emails.js";
import { bindTransactional } from "./transactional.js";
import { bindEmailSends } from "./email-sends.js";
import { bindDataExports } from "./data-exports.js";
import { bindWarehouseSyncs } from "./warehouse-syncs.js";
import { bindMigrations } from "./migrations.js";
import { bindRetention } from "./retention.js";

/** Binds one capability's adapters, use cases and job handlers. */
export type Capability = (container: Container, handlers: JobHandlers) => void;

/** Every capability, bound after the platform services they build on. */
export const capabilities: readonly Capability[] = [
  bindCompany,
  bindSubscribers,
  bindSubscriberImports,
  bindSubscriberOperations,
  bindTagsAndLists,
  bindCustomEvents,
  bindSegments,
  bindAccounts,
  bindMetrics,
  bindTracking,
  bindDelivery,
  bindEmails,
  bindTransactional,
  bindEmailSends,
  bindDataExports,
  bindWarehouseSyncs,
  bindMigrations,
  bindRetention,
];
