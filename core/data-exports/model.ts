import { invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { retryDelayMs as jobRetryDelayMs } from "../jobs/retry-delay.js";

/**
 * Data exports: a company's events and subscribers written to its own bucket, incrementally.
 *
 * Life of an export (spec, States and transitions): created `queued` (its first run starts at
 * once); `running` while a run writes files; `idle` after a successful run, until the next one
 * is due (per `frequency`); `failed` after a failed run, with a retry due after an exponential
 * back-off from the frequency (capped at 6 hours). `isEnabled` false pauses it: no run is queued.
 */

export const DATASETS = ["email_events", "sms_events", "custom_events", "subscribers"] as const;
export type Dataset = (typeof DATASETS)[number];
/** Datasets written incrementally from `startFrom`, each with its own watermark. */
export const EVENT_DATASETS = ["email_events", "sms_events", "custom_events"] as const;
export type EventDataset = (typeof EVENT_DATASETS)[number];
export const isEventDataset = (dataset: Dataset): dataset is EventDataset => dataset !== "subscribers";

export const PROVIDERS = ["s3", "gcs"] as const;
export type Provider = (typeof PROVIDERS)[number];

export const FREQUENCIES = ["every_5_minutes", "every_15_minutes", "hourly", "daily"] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const DEFAULT_FREQUENCY: Frequency = "every_15_minutes";
export const FREQUENCY_MS: Readonly<Record<Frequency, number>> = {
  every_5_minutes: 5 * 60_000,
  every_15_minutes: 15 * 60_000,
  hourly: 3_600_000,
  daily: 24 * 3_600_000,
};

export const EXPORT_STATUSES = ["idle", "queued", "running", "failed"] as const;
export type ExportStatus = (typeof EXPORT_STATUSES)[number];

/** Limits (spec, Limits). */
export const MAX_NAME_LENGTH = 255;
export const MAX_START_FROM_AGE_MS = 30 * 24 * 3_600_000;
export const RETRY_CAP_MS = 6 * 3_600_000;

/**
 * Where an event dataset's export stands: every event recorded before `at` is written, and so
 * is every event recorded exactly at `at` whose ID is at most `id` (`""`: none of them yet).
 * Events are read in (recorded time, ID) order, so the pair is a total order with no ties.
 */
export interface EventCursor {
  readonly at: Date;
  readonly id: string;
}

/** A subscriber snapshot being written: its day, the last subscriber ID written, its next part. */
export interface SnapshotProgress {
  readonly date: string;
  readonly afterId: string | null;
  readonly part: number;
}

/** What has been written so far, per dataset. */
export interface Watermarks {
  /** Null (absent) before the dataset's first export: it starts at `startFrom`. */
  readonly events: Readonly<Partial<Record<EventDataset, EventCursor>>>;
  /** The day (YYYY-MM-DD, UTC) of the last complete snapshot, and the one in progress. */
  readonly subscribers: { readonly completed: string | null; readonly current: SnapshotProgress | null };
}

export const NO_WATERMARKS: Watermarks = { events: {}, subscribers: { completed: null, current: null } };

/** How the export signs in: HMAC keys (S3 and GCS), or a service account's JSON key (GCS). */
export const CREDENTIAL_TYPES = ["hmac", "service_account"] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

/** The bucket and its credentials; the secret only sealed. */
export interface Destination {
  readonly provider: Provider;
  readonly bucket: string;
  readonly region: string;
  readonly endpoint: string | null;
  readonly pathPrefix: string;
  readonly credentialType: CredentialType;
  /** The HMAC access key ID, or the service account's `client_email`. */
  readonly accessKeyId: string;
  /** The HMAC secret or the service account key (JSON) sealed with SecretBox, bound to the export's ID (sealed-secret.ts). */
  readonly secretSealed: string;
  /** The service account key's fingerprint (`SHA256:...`); null with HMAC keys. */
  readonly keyFingerprint: string | null;
}

export interface DataExport {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly destination: Destination;
  readonly datasets: readonly Dataset[];
  readonly frequency: Frequency;
  readonly isEnabled: boolean;
  readonly status: ExportStatus;
  readonly startFrom: Date;
  readonly watermarks: Watermarks;
  readonly nextRunAt: Date | null;
  readonly lastRunAt: Date | null;
  readonly lastSuccessAt: Date | null;
  readonly lastError: string | null;
  readonly lastErrorAt: Date | null;
  readonly consecutiveFailures: number;
  readonly totalRowsExported: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Deleted exports are kept (their runs explain the files already written) but never shown. */
  readonly deletedAt: Date | null;
}

export interface NewExport {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly destination: Destination;
  readonly datasets: readonly Dataset[];
  readonly frequency: Frequency;
  readonly startFrom: Date;
}

/** A new export, `queued`: the caller queues its first run in the same write. */
export const newExport = (fields: NewExport, now: Date): DataExport => ({
  ...fields,
  isEnabled: true,
  status: "queued",
  watermarks: NO_WATERMARKS,
  nextRunAt: now,
  lastRunAt: null,
  lastSuccessAt: null,
  lastError: null,
  lastErrorAt: null,
  consecutiveFailures: 0,
  totalRowsExported: 0,
  createdAt: now,
  updatedAt: now,
  deletedAt: null,
});

/**
 * The wait before retrying after `consecutiveFailures` failures in a row: the frequency's
 * interval, doubled for each failure after the first, never more than 6 hours.
 */
export const retryDelayMs = (frequency: Frequency, consecutiveFailures: number): number =>
  jobRetryDelayMs(consecutiveFailures, FREQUENCY_MS[frequency], RETRY_CAP_MS);

export type ExportEvent =
  /** A run was queued (first, scheduled, retry, manual or on resume). */
  | { readonly type: "queue" }
  /** The queued run started. */
  | { readonly type: "start" }
  /** A file was committed: its rows count and the dataset's watermark moves. */
  | { readonly type: "progress"; readonly rows: number; readonly watermarks: Watermarks }
  | { readonly type: "succeed" }
  | { readonly type: "fail"; readonly error: string }
  /** The active run was cancelled: paused or deleted before it started, or deleted while it ran. */
  | { readonly type: "cancel" }
  | { readonly type: "pause" }
  | { readonly type: "resume" }
  | { readonly type: "delete" };

const refuse = (current: DataExport, event: ExportEvent) => fail<DataExport>(invalidState(`Data export is ${current.status}: cannot ${event.type}`));

/** The pure state machine of an export: every change of status and schedule goes through here. */
export function transition(current: DataExport, event: ExportEvent, now: Date): Result<DataExport> {
  const { status } = current;
  const at = { updatedAt: now };
  if (current.deletedAt && event.type !== "cancel" && event.type !== "fail" && event.type !== "succeed") return refuse(current, event);
  switch (event.type) {
    case "queue":
      if (!current.isEnabled || (status !== "idle" && status !== "failed")) return refuse(current, event);
      return ok({ ...current, ...at, status: "queued", nextRunAt: now });
    case "start":
      return status === "queued" ? ok({ ...current, ...at, status: "running", lastRunAt: now }) : refuse(current, event);
    case "progress":
      if (status !== "running") return refuse(current, event);
      return ok({ ...current, ...at, watermarks: event.watermarks, totalRowsExported: current.totalRowsExported + event.rows });
    case "succeed": {
      if (status !== "running") return refuse(current, event);
      const started = current.lastRunAt ?? now;
      return ok({
        ...current,
        ...at,
        status: "idle",
        lastSuccessAt: now,
        lastError: null,
        consecutiveFailures: 0,
        nextRunAt: current.isEnabled && !current.deletedAt ? new Date(started.getTime() + FREQUENCY_MS[current.frequency]) : null,
      });
    }
    case "fail": {
      if (status !== "running") return refuse(current, event);
      const failures = current.consecutiveFailures + 1;
      return ok({
        ...current,
        ...at,
        status: "failed",
        lastError: event.error,
        lastErrorAt: now,
        consecutiveFailures: failures,
        nextRunAt: current.isEnabled && !current.deletedAt ? new Date(now.getTime() + retryDelayMs(current.frequency, failures)) : null,
      });
    }
    case "cancel":
      return status === "queued" || status === "running" ? ok({ ...current, ...at, status: current.lastError ? "failed" : "idle" }) : refuse(current, event);
    case "pause":
      return ok({ ...current, ...at, isEnabled: false, nextRunAt: null });
    case "resume":
      return current.isEnabled ? ok(current) : ok({ ...current, ...at, isEnabled: true, nextRunAt: now });
    case "delete":
      return ok({ ...current, ...at, deletedAt: now, nextRunAt: null });
  }
}

/** The export's `exportedThrough`: per selected dataset, the time (events) or day (snapshot) written through. */
export function exportedThrough(dataExport: DataExport): Partial<Record<Dataset, string | null>> {
  const through: Partial<Record<Dataset, string | null>> = {};
  for (const dataset of dataExport.datasets) {
    through[dataset] = isEventDataset(dataset)
      ? (dataExport.watermarks.events[dataset]?.at.toISOString() ?? null)
      : dataExport.watermarks.subscribers.completed;
  }
  return through;
}
