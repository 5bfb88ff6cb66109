import type { DuplicateStrategy } from "../subscribers/model.js";
import { sumCounts, type ImportStatus, type ReasonCounts, type SubscriberImport } from "./model.js";

/** The import record of the API (compat-reference §4, Import). */
export interface ImportView {
  readonly id: string;
  readonly status: ImportStatus;
  readonly fileName: string | null;
  readonly duplicateStrategy: DuplicateStrategy;
  readonly listIds: readonly string[];
  readonly totalRows: number;
  readonly emailCount: number;
  readonly duplicateRows: number;
  readonly processedCount: number;
  readonly addedCount: number;
  readonly updatedCount: number;
  readonly skippedCount: number;
  readonly failedCount: number;
  readonly chunkCount: number;
  readonly processedChunks: number;
  readonly failedChunks: number;
  readonly skippedReasons: ReasonCounts;
  readonly failedReasons: ReasonCounts;
  readonly failedChunkReasons: ReasonCounts;
  readonly error: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** When it ended (completed or failed); null while queued or running. */
  readonly completedAt: string | null;
}

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
