import * as t from "io-ts";
import { withEarlierShape } from "../jobs/earlier-payload.js";
import { defineJob } from "../jobs/job-definition.js";
import type { JobRequest } from "../ports/job-queue.js";

export const DELIVER_WEBHOOK_JOB = "webhook.deliver";

/**
 * Deliveries to one webhook queued together: a publish of many events queues one job per this
 * many of them. Its deliveries are POSTed one after another, so the worker's concurrency still
 * bounds the requests in flight; a group small enough that a burst still spreads over the worker's
 * slots, large enough that the claim, the read and the record are shared.
 */
export const DELIVERIES_PER_JOB = 25;

/** `deliveryIds`; jobs queued before grouping carry one `deliveryId`, read as a group of one. */
const DeliveryPayload = withEarlierShape(
  t.type({ deliveryIds: t.array(t.string), attempt: t.number }),
  t.type({ deliveryId: t.string, attempt: t.number }),
  ({ deliveryId, attempt }) => ({ deliveryIds: [deliveryId], attempt }),
);

/**
 * One attempt at each of a few deliveries. `attempt` is the deliveries' attempt this job makes: a
 * job that runs again after a crash finds the attempts it recorded and makes only the others.
 * Retries are each delivery's own (its schedule runs for days), so the job's attempts only cover
 * database errors.
 */
export const WebhookDeliveryJob = defineJob({
  type: DELIVER_WEBHOOK_JOB,
  company: "required",
  payload: DeliveryPayload,
  maxAttempts: 5,
});

export const webhookDeliveryJob = (companyId: string, deliveryIds: readonly string[], attempt: number, runAt?: Date): JobRequest =>
  WebhookDeliveryJob.request({ deliveryIds: [...deliveryIds], attempt }, { companyId, ...(runAt ? { runAt } : {}) });
