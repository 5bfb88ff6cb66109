import * as t from "io-ts";
import { nullable, oneOf } from "../shared/codecs.js";
import { withSchema } from "../shared/json-schema.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import { RUN_STATUSES, RUN_TRIGGERS, type ExportRun } from "./export-run.js";
import { DATASETS, EXPORT_STATUSES, exportedThrough, FREQUENCIES, PROVIDERS, type DataExport } from "./model.js";

const Dataset = oneOf(DATASETS, "Dataset");
/** A value per dataset, for the datasets that have one. */
const perDataset = <C extends t.Mixed>(codec: C) =>
  t.exact(t.partial(Object.fromEntries(DATASETS.map((dataset) => [dataset, codec])) as Record<(typeof DATASETS)[number], C>));

const MaskedAccessKeyId = withSchema(new t.Type<string, string, unknown>("MaskedAccessKeyId", t.string.is, t.string.validate, t.identity), {
  type: "string",
  description: "masked: the first and last four characters of a long key ID, else only asterisks",
});

const ServiceAccountView = view(
  {
    clientEmail: t.string,
    keyFingerprint: withSchema(new t.Type<string, string, unknown>("KeyFingerprint", t.string.is, t.string.validate, t.identity), {
      type: "string",
      description: "SHA256:<base64> of the key's public key, as ssh-keygen -l prints it",
    }),
  },
  "DataExportServiceAccount",
);

/**
 * The spec's Data export resource. The secret is never in it; the access key ID only masked.
 * With a service account key (gcs): `accessKeyId` is null and `serviceAccount` shows the
 * account's email and the key's fingerprint, nothing else of the key.
 */
export const DataExportView = view(
  {
    id: Id,
    name: t.string,
    provider: oneOf(PROVIDERS, "Provider"),
    bucket: t.string,
    region: t.string,
    endpoint: NullableString,
    pathPrefix: t.string,
    accessKeyId: nullable(MaskedAccessKeyId),
    serviceAccount: nullable(ServiceAccountView),
    datasets: t.readonlyArray(Dataset),
    frequency: oneOf(FREQUENCIES, "Frequency"),
    isEnabled: t.boolean,
    status: oneOf(EXPORT_STATUSES, "ExportStatus"),
    startFrom: Timestamp,
    exportedThrough: perDataset(NullableString),
    nextRunAt: NullableTimestamp,
    lastRunAt: NullableTimestamp,
    lastSuccessAt: NullableTimestamp,
    lastError: NullableString,
    lastErrorAt: NullableTimestamp,
    consecutiveFailures: t.number,
    totalRowsExported: t.number,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "DataExport",
);
export type DataExportView = t.TypeOf<typeof DataExportView>;

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
  accessKeyId: e.destination.credentialType === "hmac" ? maskAccessKeyId(e.destination.accessKeyId) : null,
  serviceAccount:
    e.destination.credentialType === "service_account" ? { clientEmail: e.destination.accessKeyId, keyFingerprint: e.destination.keyFingerprint ?? "" } : null,
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

const DatasetRunView = view(
  { rows: t.number, files: t.number, bytes: t.number, from: NullableString, through: NullableString, note: NullableString },
  "DatasetRun",
);
const ExportedFileView = view(
  { dataset: Dataset, key: t.string, rows: t.number, bytes: t.number, firstRecordedAt: NullableTimestamp, lastRecordedAt: NullableTimestamp },
  "ExportedFile",
);

/** One run of an export, with its progress per dataset and the files it committed. */
export const ExportRunView = view(
  {
    id: Id,
    dataExportId: Id,
    trigger: oneOf(RUN_TRIGGERS, "RunTrigger"),
    status: oneOf(RUN_STATUSES, "RunStatus"),
    rowsExported: t.number,
    filesWritten: t.number,
    bytesWritten: t.number,
    datasets: perDataset(DatasetRunView),
    files: t.readonlyArray(ExportedFileView),
    manifestKey: NullableString,
    error: NullableString,
    createdAt: Timestamp,
    startedAt: NullableTimestamp,
    finishedAt: NullableTimestamp,
    updatedAt: Timestamp,
  },
  "ExportRun",
);
export type ExportRunView = t.TypeOf<typeof ExportRunView>;

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
