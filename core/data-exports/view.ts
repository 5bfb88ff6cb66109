import type { DatasetRun, ExportedFile, ExportRun, RunStatus, RunTrigger } from "./export-run.js";
import { exportedThrough, type DataExport, type Dataset, type ExportStatus, type Frequency, type Provider } from "./model.js";

/** The spec's Data export resource. The secret is never in it; the access key ID only masked. */
export interface DataExportView {
  readonly id: string;
  readonly name: string;
  readonly provider: Provider;
  readonly bucket: string;
  readonly region: string;
  readonly endpoint: string | null;
  readonly pathPrefix: string;
  readonly accessKeyId: string;
  readonly datasets: readonly Dataset[];
  readonly frequency: Frequency;
  readonly isEnabled: boolean;
  readonly status: ExportStatus;
  readonly startFrom: string;
  readonly exportedThrough: Partial<Record<Dataset, string | null>>;
  readonly nextRunAt: string | null;
  readonly lastRunAt: string | null;
  readonly lastSuccessAt: string | null;
  readonly lastError: string | null;
  readonly lastErrorAt: string | null;
  readonly consecutiveFailures: number;
  readonly totalRowsExported: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/**
 * `AKIA****MPLE`: the first and last four characters of a long key ID, which tell keys apart
 * without giving one away; a short one is hidden whole.
 */
export const maskAccessKeyId = (accessKeyId: string): string =>
  accessKeyId.length >= 12 ? `${accessKeyId.slice(0, 4)}****${accessKeyId.slice(-4)}` : "********";

const iso = (date: Date | null): string | null => date?.toISOString() ?? null;

export const toDataExportView = (e: DataExport): DataExportView => ({
  id: e.id,
  name: e.name,
  provider: e.destination.provider,
  bucket: e.destination.bucket,
  region: e.destination.region,
  endpoint: e.destination.endpoint,
  pathPrefix: e.destination.pathPrefix,
  accessKeyId: maskAccessKeyId(e.destination.accessKeyId),
  datasets: e.datasets,
  frequency: e.frequency,
  isEnabled: e.isEnabled,
  status: e.status,
  startFrom: e.startFrom.toISOString(),
  exportedThrough: exportedThrough(e),
  nextRunAt: iso(e.nextRunAt),
  lastRunAt: iso(e.lastRunAt),
  lastSuccessAt: iso(e.lastSuccessAt),
  lastError: e.lastError,
  lastErrorAt: iso(e.lastErrorAt),
  consecutiveFailures: e.consecutiveFailures,
  totalRowsExported: e.totalRowsExported,
  createdAt: e.createdAt.toISOString(),
  updatedAt: e.updatedAt.toISOString(),
});

/** One run of an export, with its progress per dataset and the files it committed. */
export interface ExportRunView {
  readonly id: string;
  readonly dataExportId: string;
  readonly trigger: RunTrigger;
  readonly status: RunStatus;
  readonly rowsExported: number;
  readonly filesWritten: number;
  readonly bytesWritten: number;
  readonly datasets: Readonly<Partial<Record<Dataset, DatasetRun>>>;
  readonly files: readonly ExportedFile[];
  readonly manifestKey: string | null;
  readonly error: string | null;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  readonly updatedAt: string;
}

export const toRunView = (r: ExportRun): ExportRunView => ({
  id: r.id,
  dataExportId: r.dataExportId,
  trigger: r.trigger,
  status: r.status,
  rowsExported: r.rowsExported,
  filesWritten: r.filesWritten,
  bytesWritten: r.bytesWritten,
  datasets: r.datasets,
  files: r.files,
  manifestKey: r.manifestKey,
  error: r.error,
  createdAt: r.createdAt.toISOString(),
  startedAt: iso(r.startedAt),
  finishedAt: iso(r.finishedAt),
  updatedAt: r.updatedAt.toISOString(),
});
