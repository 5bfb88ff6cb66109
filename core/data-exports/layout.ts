import type { EventDataset } from "./model.js";

/**
 * Where an export's objects go in the bucket, under its path prefix:
 *
 *   _service/connection-test.json                          the connection test (create, rotate, test)
 *   <dataset>/date=YYYY-MM-DD/<recorded>_<eventId>.jsonl.gz    event files, named after their first event
 *   subscribers/date=YYYY-MM-DD/part-NNNNN.jsonl.gz          the day's subscriber snapshot, in parts
 *   _manifests/<runId>.json                               one manifest per run
 *
 * Names are deterministic: a run resumed after dying between writing a file and recording it
 * writes the same name again (never a second copy of the same rows).
 */
export const CONNECTION_TEST_PATH = "_service/connection-test.json";

const under = (pathPrefix: string, path: string): string => (pathPrefix === "" ? path : `${pathPrefix}/${path}`);

export const connectionTestKey = (pathPrefix: string): string => under(pathPrefix, CONNECTION_TEST_PATH);

/** `2026-11-22T10:00:00.123Z` -> `20261122T100000123Z`: sortable and free of `:`. */
const compactTime = (iso: string): string => iso.replace(/[-:.]/g, "");

/** IDs are ours (prefix, `_`, base32), but a name must never carry a `/`. */
const safeId = (id: string): string => id.replace(/[^A-Za-z0-9_-]/g, "-");

/** The file whose first event was recorded at `recordedAt` (ISO) with ID `id`. */
export const eventFileKey = (pathPrefix: string, dataset: EventDataset, recordedAt: string, id: string): string =>
  under(pathPrefix, `${dataset}/date=${recordedAt.slice(0, 10)}/${compactTime(recordedAt)}_${safeId(id)}.jsonl.gz`);

export const snapshotFileKey = (pathPrefix: string, date: string, part: number): string =>
  under(pathPrefix, `subscribers/date=${date}/part-${String(part).padStart(5, "0")}.jsonl.gz`);

export const manifestKey = (pathPrefix: string, runId: string): string => under(pathPrefix, `_manifests/${runId}.json`);
