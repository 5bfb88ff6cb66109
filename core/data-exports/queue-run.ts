import { must } from "../shared/result.js";
import { newRun, transitionRun, type ExportRun, type RunTrigger } from "./export-run.js";
import { transition, type DataExport } from "./model.js";
import type { ExportChange, ExportState } from "./ports.js";

export interface QueuedRun {
  readonly save: ExportChange;
  readonly run: ExportRun;
}

/**
 * A new queued run of the export, when it can take one: enabled, not deleted, idle or failed,
 * and no run already queued or running (an export runs one at a time). Null otherwise.
 */
export function queueRun(state: ExportState, runId: string, trigger: RunTrigger, now: Date, dataExport: DataExport = state.dataExport): QueuedRun | null {
  if (state.activeRun) return null;
  const queued = transition(dataExport, { type: "queue" }, now);
  if (queued._tag === "Left") return null;
  const run = newRun(runId, dataExport.companyId, dataExport.id, trigger, now);
  return { save: { dataExport: queued.right, runs: [run] }, run };
}

/**
 * Cancels the export's run if it is still queued (pause, delete); a running run is left to
 * finish its file and stops at the next commit when the export was deleted.
 */
export function cancelQueuedRun(state: ExportState, now: Date): { readonly dataExport: DataExport; readonly runs: ExportRun[] } {
  const { dataExport, activeRun } = state;
  if (!activeRun || activeRun.status !== "queued") return { dataExport, runs: [] };
  return {
    dataExport: must(transition(dataExport, { type: "cancel" }, now)),
    runs: [must(transitionRun(activeRun, { type: "cancel" }, now))],
  };
}
