import { invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { Dataset } from "./model.js";

/**
 * One run of an export: queued, then running while it writes files (its counters move with each
 * committed file, so progress shows while it runs), then succeeded, failed or canceled. An export
 * has at most one run queued or running. A run killed half-way is resumed by its job.
 */
export const RUN_STATUSES = ["queued", "running", "succeeded", "failed", "canceled"] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const isActiveRun = (status: RunStatus): boolean => status === "queued" || status === "running";

/** Why a run was queued. */
export const RUN_TRIGGERS = ["created", "scheduled", "retry", "manual", "resumed"] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/** A file committed to the bucket. */
export interface ExportedFile {
  readonly dataset: Dataset;
  readonly key: string;
  readonly rows: number;
  readonly bytes: number;
  /** Recorded time of the first and last event in it (ISO); null in snapshot files. */
  readonly firstRecordedAt: string | null;
  readonly lastRecordedAt: string | null;
}

/** What a run did for one dataset. */
export interface DatasetRun {
  readonly rows: number;
  readonly files: number;
  readonly bytes: number;
  /** Events: the watermark before the run and after it (ISO). Snapshot: the snapshot's day. */
  readonly from: string | null;
  readonly through: string | null;
  /** Why nothing was written, when nothing was (e.g. no SMS events are recorded yet). */
  readonly note: string | null;
}

export interface ExportRun {
  readonly id: string;
  readonly companyId: string;
  readonly dataExportId: string;
  readonly trigger: RunTrigger;
  readonly status: RunStatus;
  readonly datasets: Readonly<Partial<Record<Dataset, DatasetRun>>>;
  readonly files: readonly ExportedFile[];
  readonly rowsExported: number;
  readonly filesWritten: number;
  readonly bytesWritten: number;
  /** The run's manifest in the bucket, once written. */
  readonly manifestKey: string | null;
  readonly error: string | null;
  readonly createdAt: Date;
  readonly startedAt: Date | null;
  readonly finishedAt: Date | null;
  readonly updatedAt: Date;
}

export const newRun = (id: string, companyId: string, dataExportId: string, trigger: RunTrigger, now: Date): ExportRun => ({
  id,
  companyId,
  dataExportId,
  trigger,
  status: "queued",
  datasets: {},
  files: [],
  rowsExported: 0,
  filesWritten: 0,
  bytesWritten: 0,
  manifestKey: null,
  error: null,
  createdAt: now,
  startedAt: null,
  finishedAt: null,
  updatedAt: now,
});

export const EMPTY_DATASET_RUN: DatasetRun = { rows: 0, files: 0, bytes: 0, from: null, through: null, note: null };

export type RunEvent =
  | { readonly type: "start" }
  /** A dataset begins (or resumes): where it starts. */
  | { readonly type: "datasetStarted"; readonly dataset: Dataset; readonly from: string | null }
  | { readonly type: "fileWritten"; readonly file: ExportedFile; readonly through: string | null }
  | { readonly type: "datasetDone"; readonly dataset: Dataset; readonly through: string | null; readonly note: string | null }
  | { readonly type: "manifestWritten"; readonly key: string }
  | { readonly type: "succeed" }
  | { readonly type: "fail"; readonly error: string }
  | { readonly type: "cancel" };

const refuse = (run: ExportRun, event: RunEvent) => fail<ExportRun>(invalidState(`Run is ${run.status}: cannot apply ${event.type}`));

const datasetOf = (run: ExportRun, dataset: Dataset): DatasetRun => run.datasets[dataset] ?? EMPTY_DATASET_RUN;

/** The pure state machine of a run. */
export function transitionRun(run: ExportRun, event: RunEvent, now: Date): Result<ExportRun> {
  const running = run.status === "running";
  const at = { updatedAt: now };
  switch (event.type) {
    case "start":
      return run.status === "queued" ? ok({ ...run, ...at, status: "running", startedAt: now }) : refuse(run, event);
    case "datasetStarted": {
      if (!running) return refuse(run, event);
      const current = run.datasets[event.dataset];
      // A resumed run keeps where the dataset first started.
      const next: DatasetRun = current ? current : { ...EMPTY_DATASET_RUN, from: event.from };
      return ok({ ...run, ...at, datasets: { ...run.datasets, [event.dataset]: next } });
    }
    case "fileWritten": {
      if (!running) return refuse(run, event);
      const { file } = event;
      const current = datasetOf(run, file.dataset);
      return ok({
        ...run,
        ...at,
        files: [...run.files, file],
        rowsExported: run.rowsExported + file.rows,
        filesWritten: run.filesWritten + 1,
        bytesWritten: run.bytesWritten + file.bytes,
        datasets: {
          ...run.datasets,
          [file.dataset]: { ...current, rows: current.rows + file.rows, files: current.files + 1, bytes: current.bytes + file.bytes, through: event.through },
        },
      });
    }
    case "datasetDone": {
      if (!running) return refuse(run, event);
      const current = datasetOf(run, event.dataset);
      return ok({ ...run, ...at, datasets: { ...run.datasets, [event.dataset]: { ...current, through: event.through, note: event.note } } });
    }
    case "manifestWritten":
      return run.status === "queued" ? refuse(run, event) : ok({ ...run, ...at, manifestKey: event.key });
    case "succeed":
      return running ? ok({ ...run, ...at, status: "succeeded", error: null, finishedAt: now }) : refuse(run, event);
    case "fail":
      return running ? ok({ ...run, ...at, status: "failed", error: event.error, finishedAt: now }) : refuse(run, event);
    case "cancel":
      return isActiveRun(run.status) ? ok({ ...run, ...at, status: "canceled", finishedAt: now }) : refuse(run, event);
  }
}
