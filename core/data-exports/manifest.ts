import type { DatasetRun, ExportedFile, ExportRun, RunTrigger } from "./export-run.js";
import type { DataExport, Dataset } from "./model.js";

/** `<pathPrefix>/_manifests/<runId>.json`: what one run wrote (README, Data exports). */
export interface Manifest {
  readonly version: 1;
  readonly runId: string;
  readonly dataExportId: string;
  readonly trigger: RunTrigger;
  readonly status: "succeeded" | "failed";
  readonly error: string | null;
  readonly startedAt: string | null;
  readonly finishedAt: string;
  readonly rows: number;
  /** Per dataset: rows, files, bytes, and the watermark range (`from`, `through`) the run covered. */
  readonly datasets: Readonly<Partial<Record<Dataset, DatasetRun>>>;
  /** Every file the run committed, in order, with its row count. */
  readonly files: readonly ExportedFile[];
}

export const manifestOf = (dataExport: DataExport, run: ExportRun, status: "succeeded" | "failed", error: string | null, now: Date): Manifest => ({
  version: 1,
  runId: run.id,
  dataExportId: dataExport.id,
  trigger: run.trigger,
  status,
  error,
  startedAt: run.startedAt?.toISOString() ?? null,
  finishedAt: now.toISOString(),
  rows: run.rowsExported,
  datasets: run.datasets,
  files: run.files,
});
