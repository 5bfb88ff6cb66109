import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import { DUPLICATE_STRATEGIES } from "../subscribers/model.js";
import { IMPORT_STATUSES, sumCounts, type SubscriberImport } from "./model.js";

const ReasonCounts = t.record(t.string, t.number, "ReasonCounts");

/** The import record of the API (compat-reference §4, Import): reason counts sum to their totals. */
export const ImportView = view(
  {
    id: Id,
    status: oneOf(IMPORT_STATUSES, "ImportStatus"),
    fileName: NullableString,
    duplicateStrategy: oneOf(DUPLICATE_STRATEGIES, "DuplicateStrategy"),
    listIds: t.readonlyArray(Id),
    totalRows: t.number,
    emailCount: t.number,
    duplicateRows: t.number,
    processedCount: t.number,
    addedCount: t.number,
    updatedCount: t.number,
    skippedCount: t.number,
    failedCount: t.number,
    chunkCount: t.number,
    processedChunks: t.number,
    failedChunks: t.number,
    skippedReasons: ReasonCounts,
    failedReasons: ReasonCounts,
    failedChunkReasons: ReasonCounts,
    error: NullableString,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    /** When it ended (completed or failed); null while queued or running. */
    completedAt: NullableTimestamp,
  },
  "Import",
);
export type ImportView = t.TypeOf<typeof ImportView>;

export const toImportView = (i: SubscriberImport): ImportView => ({
  id: i.id,
  status: i.status,
  fileName: i.fileName,
  duplicateStrategy: i.options.duplicateStrategy,
  listIds: i.options.listIds,
  totalRows: i.totalRows,
  emailCount: i.emailCount,
  duplicateRows: i.duplicateRows,
  processedCount: i.processedCount,
  addedCount: i.addedCount,
  updatedCount: i.updatedCount,
  skippedCount: i.skippedCount,
  failedCount: i.failedCount,
  chunkCount: i.chunkCount,
  processedChunks: i.processedChunks,
  failedChunks: sumCounts(i.failedChunkReasons),
  skippedReasons: i.skippedReasons,
  failedReasons: i.failedReasons,
  failedChunkReasons: i.failedChunkReasons,
  error: i.error,
  createdAt: i.createdAt.toISOString(),
  updatedAt: i.updatedAt.toISOString(),
  completedAt: i.completedAt?.toISOString() ?? null,
});
