import * as t from "io-ts";
import { defineJob } from "../jobs/job-definition.js";
import type { JobRequest } from "../ports/job-queue.js";

export const DELIVER_WEBHOOK_JOB = "webhook.deliver";

/**
 * One attempt at one delivery. `attempt` is the delivery's attempt this job makes: a job that
 * runs again after a crash finds the attempt recorded and does nothing. Retries are the
 * delivery's own (its schedule runs for days), so the job's attempts only cover database errors.
 */
export const WebhookDeliveryJob = defineJob({
  type: DELIVER_WEBHOOK_JOB,
  company: "required",
  payload: t.type({ deliveryId: t.string, attempt: t.number }),
  maxAttempts: 5,
});

export const webhookDeliveryJob = (companyId: string, deliveryId: string, attempt: number, runAt?: Date): JobRequest =>
  WebhookDeliveryJob.request({ deliveryId, attempt }, { companyId, ...(runAt ? { runAt } : {}) });
