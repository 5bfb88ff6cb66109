import * as t from "io-ts";
import { defineJob } from "../jobs/job-definition.js";
import type { JobRequest } from "../ports/job-queue.js";

/** Processes one stored webhook delivery (the webhook answered as soon as it was stored). */
export const ProcessDeliveryJob = defineJob({
  type: "integrations.process-delivery",
  company: "required",
  payload: t.type({ deliveryId: t.string }),
  maxAttempts: 8,
});

export const processDeliveryJob = (companyId: string, deliveryId: string): JobRequest =>
  ProcessDeliveryJob.request({ deliveryId }, { companyId, singletonKey: `integration-delivery:${deliveryId}` });

/** Reads one page of an integration's sync and queues the next: a run resumes from its stored cursor. */
export const RunSyncJob = defineJob({
  type: "integrations.sync",
  company: "required",
  payload: t.type({ integrationId: t.string, page: t.number }),
  maxAttempts: 6,
});

/** Each page has a key of its own: the page queued after this one is not refused as this job's duplicate. */
export const runSyncJob = (companyId: string, integrationId: string, page: number): JobRequest =>
  RunSyncJob.request({ integrationId, page }, { companyId, singletonKey: `integration-sync:${integrationId}:${page}` });
