import * as t from "io-ts";
import { defineJob } from "../jobs/job-definition.js";
import type { JobRequest } from "../ports/job-queue.js";
import type { ExportRun } from "./export-run.js";

/** The job that runs (or resumes) one run of an export. */
export const RUN_DATA_EXPORT_JOB = "data_exports.run";
/** The schedule that queues the runs that are due and re-enqueues the jobs of active runs. */
export const DISPATCH_DATA_EXPORTS_JOB = "data_exports.dispatch";
export const DISPATCH_EVERY_MS = 60_000;

export const RunDataExportJob = defineJob({
  type: RUN_DATA_EXPORT_JOB,
  company: "required",
  payload: t.type({ dataExportId: t.string, runId: t.string }),
});

/** One job per run (its singleton key): enqueueing it again while it waits or runs changes nothing. */
export const runJob = (run: Pick<ExportRun, "id" | "companyId" | "dataExportId">): JobRequest =>
  RunDataExportJob.request({ dataExportId: run.dataExportId, runId: run.id }, { companyId: run.companyId, singletonKey: `data_export_run:${run.id}` });
