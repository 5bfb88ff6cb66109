import * as t from "io-ts";
import { defineJob } from "../jobs/job-definition.js";
import type { JobRequest } from "../ports/job-queue.js";

/**
 * The send engine's jobs. Each only says which campaign to advance; the campaign row holds the
 * state (status, position, batch number), so a job that runs twice, late, or after a pause finds
 * nothing left to do.
 */

/** Starts a scheduled campaign once its scheduledAt has come (queued for that time when it is scheduled). */
export const StartCampaignSendJob = defineJob({ type: "campaigns.start", company: "required", payload: t.type({ campaignId: t.string }), maxAttempts: 20 });

export const startCampaignSendJob = (companyId: string, campaignId: string, at: Date): JobRequest =>
  StartCampaignSendJob.request({ campaignId }, { companyId, runAt: at, singletonKey: `campaigns.start:${campaignId}:${at.toISOString()}` });

/** Queues one batch of a sending campaign's recipients; batch `batch` is the campaign's next. */
export const SendCampaignBatchJob = defineJob({
  type: "campaigns.batch",
  company: "required",
  payload: t.type({ campaignId: t.string, batch: t.number }),
  maxAttempts: 20,
});

export const sendCampaignBatchJob = (companyId: string, campaignId: string, batch: number, at: Date): JobRequest =>
  SendCampaignBatchJob.request({ campaignId, batch }, { companyId, runAt: at, singletonKey: `campaigns.batch:${campaignId}:${batch}` });

/**
 * Marks a campaign whose batches are all queued `sent` once none of its sends waits for delivery;
 * until then it looks again later (check `check`). Behind deliveries due at the same time.
 */
export const FinishCampaignSendJob = defineJob({
  type: "campaigns.finish",
  company: "required",
  payload: t.type({ campaignId: t.string, check: t.number }),
  maxAttempts: 20,
});

export const finishCampaignSendJob = (companyId: string, campaignId: string, check: number, at: Date): JobRequest =>
  FinishCampaignSendJob.request({ campaignId, check }, { companyId, runAt: at, priority: -1, singletonKey: `campaigns.finish:${campaignId}:${check}` });

/** Every minute: starts the scheduled campaigns whose time has come and that no start job took (a safety net). */
export const SWEEP_DUE_CAMPAIGNS_JOB = "campaigns.sweep_due";

/**
 * A job of a batch queued besides the chain: by a resume, or by a batch waiting until its first
 * recipient is due. It has no singleton key: a job of the same batch may still be queued or
 * running, and whichever records the batch first wins (the other finds it recorded and does nothing).
 */
export const unkeyedBatchJob = (companyId: string, campaignId: string, batch: number, at: Date): JobRequest =>
  SendCampaignBatchJob.request({ campaignId, batch }, { companyId, runAt: at });
