import * as t from "io-ts";
import { defineJob } from "../jobs/job-definition.js";
import type { JobRequest } from "../ports/job-queue.js";

/** Moves a company's due enrollments on; one at a time per company (its singleton key). */
export const AdvanceEnrollmentsJob = defineJob({ type: "sequences.advance", company: "required", payload: t.type({}), maxAttempts: 20 });

export const advanceEnrollmentsJob = (companyId: string): JobRequest =>
  AdvanceEnrollmentsJob.request({}, { companyId, singletonKey: `sequences.advance:${companyId}` });

/** Every minute: an advance job for each company with enrollments due (delays that ended). */
export const SWEEP_DUE_ENROLLMENTS_JOB = "sequences.sweep_due";
