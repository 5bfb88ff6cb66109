import type { JobRequest } from "../ports/job-queue.js";
import type { ExportRun } from "./export-run.js";

/** The job that runs (or resumes) one run of an export. */
export const RUN_DATA_EXPORT_JOB = "data_exports.run";
/** The schedule that queues the runs that are due and re-enqueues the jobs of active runs. */
export const DISPATCH_DATA_EXPORTS_JOB = "data_exports.dispatch";
export const DISPATCH_EVERY_MS = 60_000;

/** One job per run (its singleton key): enqueueing it again while it waits or runs changes nothing. */
export const runJob = (run: Pick<ExportRun, "id" | "companyId" | "dataExportId">): JobRequest => ({
  type: RUN_DATA_EXPORT_JOB,
  companyId: run.companyId,
  payload: { dataExportId: run.dataExportId, runId: run.id },
  singletonKey: `data_export_run:${run.id}`,
});
