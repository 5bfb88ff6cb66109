import { MAX_ERROR_SAMPLES, NO_ROWS, type ErrorSample, type RunCounts } from "./model.js";

/**
 * The counts of a run as it reads: every row read ends up unchanged, synced, skipped or failed,
 * so rowsRead is their sum once the run's imports have written their rows. Error samples keep
 * the first MAX_ERROR_SAMPLES skipped or failed rows.
 */
export class RunTally {
  private counts: { -readonly [K in keyof RunCounts]: number } = { ...NO_ROWS };
  private readonly samples: ErrorSample[] = [];

  read(rows: number): void {
    this.counts.rowsRead += rows;
  }

  unchanged(): void {
    this.counts.rowsUnchanged += 1;
  }

  synced(rows: number): void {
    this.counts.rowsSynced += rows;
  }

  skip(row: number, reason: string): void {
    this.counts.rowsSkipped += 1;
    this.sample(row, reason);
  }

  /** Rows the import skipped, for reasons it counts without naming rows. */
  skippedByImport(rows: number, row: number, reason: string): void {
    if (rows <= 0) return;
    this.counts.rowsSkipped += rows;
    this.sample(row, reason);
  }

  fail(row: number, reason: string): void {
    this.counts.rowsFailed += 1;
    this.sample(row, reason);
  }

  /** Rows the import could not write (one sample for them all). */
  failedByImport(rows: number, row: number, reason: string): void {
    if (rows <= 0) return;
    this.counts.rowsFailed += rows;
    this.sample(row, reason);
  }

  private sample(row: number, reason: string): void {
    if (this.samples.length < MAX_ERROR_SAMPLES) this.samples.push({ row, reason });
  }

  get snapshot(): { readonly counts: RunCounts; readonly errorSamples: readonly ErrorSample[] } {
    return { counts: { ...this.counts }, errorSamples: [...this.samples] };
  }
}
