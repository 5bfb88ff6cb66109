import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Actor } from "../shared/actor.js";
import { invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { barMarketer, dataExportNotFound } from "./errors.js";
import type { DataExportRepository, ExportState, ExportStep } from "./ports.js";
import { queueRun } from "./queue-run.js";
import { runJob } from "./run-job.js";
import { toDataExportView, toRunView, type DataExportView, type ExportRunView } from "./view.js";

export interface RequestedRun {
  readonly run: ExportRunView;
  readonly dataExport: DataExportView;
  /** False when a run was already queued or running: that one is returned and no other starts. */
  readonly queued: boolean;
}

/** POST /data-exports/{id}/run: runs the export now, unless a run is already queued or running. */
export class RequestDataExportRun {
  constructor(
    private readonly exports: DataExportRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, id: string): Promise<Result<RequestedRun>> => {
    const barred = barMarketer(actor);
    if (barred) return fail(barred);
    const now = this.clock.now();
    const runId = this.ids.next("dxr");
    const outcome = await this.exports.change(actor.companyId, id, (state) => decide(state, runId, now));
    if (!outcome) return fail(dataExportNotFound());
    if (outcome._tag === "Right") {
      // Also for a run already active: a job lost before it was enqueued is enqueued again.
      await this.jobs.enqueue(runJob({ id: outcome.right.run.id, companyId: actor.companyId, dataExportId: id }));
    }
    return outcome;
  };
}

function decide(state: ExportState, runId: string, now: Date): ExportStep<Result<RequestedRun>> {
  const { dataExport, activeRun } = state;
  if (dataExport.deletedAt) return { value: fail(dataExportNotFound()) };
  if (activeRun) return { value: ok({ run: toRunView(activeRun), dataExport: toDataExportView(dataExport), queued: false }) };
  if (!dataExport.isEnabled) return { value: fail(invalidState("Data export is paused: resume it (isEnabled true) before running it")) };
  const next = queueRun(state, runId, "manual", now);
  if (!next) return { value: fail(invalidState(`Data export is ${dataExport.status}: it cannot run now`)) };
  return { save: next.save, value: ok({ run: toRunView(next.run), dataExport: toDataExportView(next.save.dataExport), queued: true }) };
}
