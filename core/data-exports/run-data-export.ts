import { BucketWriteError, type Bucket, type BucketDestination, type BucketWriter } from "../ports/bucket-writer.js";
import type { Clock } from "../ports/clock.js";
import type { Gzip } from "../ports/gzip.js";
import type { SecretBox } from "../ports/secret-box.js";
import { must } from "../shared/result.js";
import { destinationOf } from "./connection-test.js";
import { jsonLines } from "./json-lines.js";
import { transitionRun, type ExportedFile, type ExportRun, type RunEvent } from "./export-run.js";
import { eventFileKey, manifestKey, snapshotFileKey } from "./layout.js";
import { manifestOf } from "./manifest.js";
import { transition, type DataExport, type Dataset, type EventCursor, type EventDataset, type ExportEvent, type Watermarks } from "./model.js";
import { PageReader } from "./page-reader.js";
import type { DataExportRepository, EventRow, ExportSource, ExportState, ExportStep } from "./ports.js";
import type { SubscriberRecord } from "./records.js";

export interface RunOptions {
  /** Rows per file at most (a file also ends with its day). */
  readonly rowsPerFile: number;
  /**
   * Rows read from the database per query. Pages of 1,000 keep memory flat: with 5,000 a page
   * outlived V8's young generation across an upload's I/O and was promoted, and the heap grew with
   * the rows exported (+283 MB over 1,000,000 rows, against +4 MB now, at the same speed).
   */
  readonly pageSize: number;
  /**
   * Events recorded in the last `settleMs` wait for the next run: an event is stamped before its
   * transaction commits, so a slow commit could otherwise land behind a watermark already moved.
   */
  readonly settleMs: number;
}

export const DEFAULT_RUN_OPTIONS: RunOptions = { rowsPerFile: 100_000, pageSize: 1_000, settleMs: 60_000 };

export const SMS_NOTE = "No SMS events are recorded yet: nothing to export, and the watermark stays where it is";
export const SNAPSHOT_DONE_NOTE = "Today's subscriber snapshot is already written (one a day)";
const INTERNAL_ERROR = "The export stopped on an internal error; it will be retried";
const UNREADABLE_SECRET = "The stored bucket credentials cannot be read (was SECRET_KEY changed?): set them again with PATCH";

/** The export was deleted, or its run cancelled, while the run was writing: stop quietly. */
class RunStopped extends Error {}

/** The run's fixed facts, read when it starts or resumes. */
interface RunContext {
  readonly companyId: string;
  readonly dataExport: DataExport;
  readonly runId: string;
  readonly bucket: Bucket;
}

/**
 * The job of one run. It writes each selected dataset's new rows as gzipped JSON Lines files,
 * committing each file (upload, then in one transaction: the run's counters and the dataset's
 * watermark), then the run's manifest. Exactly once: a watermark moves only after its file is
 * in the bucket, and a file's name is fixed by its first row, so a run that dies between the
 * upload and the commit writes the same name again when resumed (a file never appears twice)
 * and resumes from the last commit (no row is skipped).
 */
export class RunDataExport {
  private readonly options: RunOptions;

  constructor(
    private readonly exports: DataExportRepository,
    private readonly source: ExportSource,
    private readonly buckets: BucketWriter,
    private readonly gzip: Gzip,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    options: Partial<RunOptions> = {},
  ) {
    this.options = { ...DEFAULT_RUN_OPTIONS, ...options };
  }

  /** Runs (or resumes) the run; resolves to it after, or null when it is not the export's active run. */
  execute = async (companyId: string, dataExportId: string, runId: string): Promise<ExportRun | null> => {
    const started = await this.exports.change(companyId, dataExportId, (state) => this.start(state, runId));
    if (!started || started.run.status !== "running") return started?.run ?? null;
    const { dataExport } = started;

    let destination: BucketDestination;
    try {
      destination = destinationOf(dataExport, this.box);
    } catch {
      return this.finish(companyId, dataExport, runId, { type: "fail", error: UNREADABLE_SECRET });
    }
    const bucket = this.buckets.open(destination);
    const context: RunContext = { companyId, dataExport, runId, bucket };
    try {
      for (const dataset of dataExport.datasets) await this.exportDataset(context, dataset);
      const key = await this.writeManifest(context, "succeeded", null);
      return await this.finish(companyId, dataExport, runId, { type: "succeed" }, key);
    } catch (error) {
      if (error instanceof RunStopped) return this.exports.findRun(companyId, dataExportId, runId);
      const reason = error instanceof BucketWriteError ? `Could not write to bucket ${dataExport.destination.bucket}: ${error.message}` : INTERNAL_ERROR;
      const key = await this.writeManifest(context, "failed", reason).catch(() => null);
      const failed = await this.finish(companyId, dataExport, runId, { type: "fail", error: reason }, key);
      // A bug or a database failure also goes to the worker's log (its retry finds the run settled).
      if (!(error instanceof BucketWriteError)) throw error;
      return failed;
    } finally {
      bucket.close();
    }
  };

  /** Starts the queued run, or resumes the running one (a worker died with it). */
  private start(state: ExportState, runId: string): ExportStep<{ dataExport: DataExport; run: ExportRun } | null> {
    const { dataExport, activeRun: run } = state;
    if (!run || run.id !== runId) return { value: null };
    const now = this.clock.now();
    if (dataExport.deletedAt) {
      const cancelled = must(transitionRun(run, { type: "cancel" }, now));
      return { save: { dataExport: must(transition(dataExport, { type: "cancel" }, now)), runs: [cancelled] }, value: { dataExport, run: cancelled } };
    }
    if (run.status === "running") return { value: { dataExport, run } };
    const next = { dataExport: must(transition(dataExport, { type: "start" }, now)), run: must(transitionRun(run, { type: "start" }, now)) };
    return { save: { dataExport: next.dataExport, runs: [next.run] }, value: next };
  }

  /**
   * Saves the run's progress with the export locked. Throws RunStopped when the run is no longer
   * the export's running run, or the export was deleted (the run is then cancelled).
   */
  private async commit(context: RunContext, runEvents: readonly RunEvent[], exportEvent?: ExportEvent): Promise<DataExport> {
    const now = this.clock.now();
    const saved = await this.exports.change(context.companyId, context.dataExport.id, (state): ExportStep<DataExport | null> => {
      const run = state.activeRun;
      if (!run || run.id !== context.runId || run.status !== "running") return { value: null };
      if (state.dataExport.deletedAt) {
        const cancelled = {
          dataExport: must(transition(state.dataExport, { type: "cancel" }, now)),
          runs: [must(transitionRun(run, { type: "cancel" }, now))],
        };
        return { save: cancelled, value: null };
      }
      const nextRun = runEvents.reduce((current, event) => must(transitionRun(current, event, now)), run);
      const nextExport = exportEvent ? must(transition(state.dataExport, exportEvent, now)) : state.dataExport;
      return { save: { dataExport: nextExport, runs: [nextRun] }, value: nextExport };
    });
    if (!saved) throw new RunStopped();
    return saved;
  }

  private async finish(
    companyId: string,
    dataExport: DataExport,
    runId: string,
    event: RunEvent & { type: "succeed" | "fail" },
    manifest: string | null = null,
  ): Promise<ExportRun | null> {
    const now = this.clock.now();
    return this.exports.change(companyId, dataExport.id, (state): ExportStep<ExportRun | null> => {
      const run = state.activeRun;
      if (!run || run.id !== runId || run.status !== "running") return { value: null };
      const withManifest = manifest ? must(transitionRun(run, { type: "manifestWritten", key: manifest }, now)) : run;
      const finished = must(transitionRun(withManifest, event, now));
      const exportEvent: ExportEvent = event.type === "succeed" ? { type: "succeed" } : { type: "fail", error: event.error };
      return { save: { dataExport: must(transition(state.dataExport, exportEvent, now)), runs: [finished] }, value: finished };
    });
  }

  private async exportDataset(context: RunContext, dataset: Dataset): Promise<void> {
    switch (dataset) {
      case "email_events":
        return this.exportEvents(context, dataset, (after, before, limit) => this.source.emailEvents(context.companyId, after, before, limit));
      case "custom_events":
        return this.exportEvents(context, dataset, (after, before, limit) => this.source.customEvents(context.companyId, after, before, limit));
      case "sms_events": {
        // No SMS events are recorded yet (no table): nothing is written and the watermark stays.
        const through = (await this.watermarks(context)).events.sms_events?.at.toISOString() ?? null;
        await this.commit(context, [
          { type: "datasetStarted", dataset, from: through },
          { type: "datasetDone", dataset, through, note: SMS_NOTE },
        ]);
        return;
      }
      case "subscribers":
        return this.exportSnapshot(context);
    }
  }

  /** The export's watermarks as last committed (a resumed run continues from there). */
  private async watermarks(context: RunContext): Promise<Watermarks> {
    const current = await this.exports.change(context.companyId, context.dataExport.id, (state) => ({ value: state.dataExport.watermarks }));
    if (!current) throw new RunStopped();
    return current;
  }

  /** New events since the dataset's watermark, recorded before now minus the settling time. */
  private async exportEvents<R>(
    context: RunContext,
    dataset: Exclude<EventDataset, "sms_events">,
    read: (after: EventCursor, before: Date, limit: number) => Promise<ReadonlyArray<EventRow<R>>>,
  ): Promise<void> {
    const { rowsPerFile, pageSize, settleMs } = this.options;
    const { pathPrefix } = context.dataExport.destination;
    let watermarks = await this.watermarks(context);
    const from: EventCursor = watermarks.events[dataset] ?? { at: context.dataExport.startFrom, id: "" };
    const before = new Date(this.clock.now().getTime() - settleMs);
    watermarks = await this.commit(context, [{ type: "datasetStarted", dataset, from: from.at.toISOString() }]).then((e) => e.watermarks);

    const reader = new PageReader<EventRow<R>>((last) => read(last ? { at: new Date(last.recordedAt), id: last.id } : from, before, pageSize), pageSize);
    for (let first = await reader.peek(); first !== undefined; first = await reader.peek()) {
      const day = first.recordedAt.slice(0, 10);
      let rows = 0;
      let last = first;
      const records = async function* (): AsyncGenerator<R> {
        for (let row = await reader.peek(); row !== undefined && rows < rowsPerFile && row.recordedAt.slice(0, 10) === day; row = await reader.peek()) {
          reader.take();
          rows += 1;
          last = row;
          yield row.record;
        }
      };
      const key = eventFileKey(pathPrefix, dataset, first.recordedAt, first.id);
      const { bytes } = await context.bucket.upload(key, this.gzip.compress(jsonLines(records())), JSONL);
      const file: ExportedFile = { dataset, key, rows, bytes, firstRecordedAt: first.recordedAt, lastRecordedAt: last.recordedAt };
      const cursor: EventCursor = { at: new Date(last.recordedAt), id: last.id };
      watermarks = withEventCursor(watermarks, dataset, cursor);
      watermarks = (await this.commit(context, [{ type: "fileWritten", file, through: last.recordedAt }], { type: "progress", rows, watermarks })).watermarks;
    }
    // Everything recorded before `before` is written now, whether or not there was any.
    const current = watermarks.events[dataset] ?? from;
    const through = current.at < before ? { at: before, id: "" } : current;
    const moved = watermarks.events[dataset] !== undefined || through !== from;
    await this.commit(
      context,
      [{ type: "datasetDone", dataset, through: moved ? through.at.toISOString() : null, note: null }],
      moved ? { type: "progress", rows: 0, watermarks: withEventCursor(watermarks, dataset, through) } : undefined,
    );
  }

  /** The day's snapshot of every subscriber, in parts, once a day; an unfinished one is finished first. */
  private async exportSnapshot(context: RunContext): Promise<void> {
    const { rowsPerFile, pageSize } = this.options;
    const { pathPrefix } = context.dataExport.destination;
    let watermarks = await this.watermarks(context);
    const today = this.clock.now().toISOString().slice(0, 10);
    const { completed, current } = watermarks.subscribers;
    if (!current && completed === today) {
      await this.commit(context, [
        { type: "datasetStarted", dataset: "subscribers", from: today },
        { type: "datasetDone", dataset: "subscribers", through: today, note: SNAPSHOT_DONE_NOTE },
      ]);
      return;
    }
    let progress = current ?? { date: today, afterId: null, part: 0 };
    await this.commit(context, [{ type: "datasetStarted", dataset: "subscribers", from: progress.date }]);

    const startAfter = progress.afterId;
    const reader = new PageReader<SubscriberRecord>((last) => this.source.subscribers(context.companyId, last ? last.id : startAfter, pageSize), pageSize);
    while ((await reader.peek()) !== undefined) {
      let rows = 0;
      let lastId = progress.afterId;
      const records = async function* (): AsyncGenerator<SubscriberRecord> {
        for (let row = await reader.peek(); row !== undefined && rows < rowsPerFile; row = await reader.peek()) {
          reader.take();
          rows += 1;
          lastId = row.id;
          yield row;
        }
      };
      const key = snapshotFileKey(pathPrefix, progress.date, progress.part);
      const { bytes } = await context.bucket.upload(key, this.gzip.compress(jsonLines(records())), JSONL);
      progress = { date: progress.date, afterId: lastId, part: progress.part + 1 };
      watermarks = { ...watermarks, subscribers: { completed: watermarks.subscribers.completed, current: progress } };
      const file: ExportedFile = { dataset: "subscribers", key, rows, bytes, firstRecordedAt: null, lastRecordedAt: null };
      watermarks = (await this.commit(context, [{ type: "fileWritten", file, through: null }], { type: "progress", rows, watermarks })).watermarks;
    }
    await this.commit(context, [{ type: "datasetDone", dataset: "subscribers", through: progress.date, note: null }], {
      type: "progress",
      rows: 0,
      watermarks: { ...watermarks, subscribers: { completed: progress.date, current: null } },
    });
  }

  /** `<pathPrefix>/_manifests/<runId>.json`: the run's files, rows and watermark ranges. */
  private async writeManifest(context: RunContext, status: "succeeded" | "failed", error: string | null): Promise<string> {
    const run = await this.exports.findRun(context.companyId, context.dataExport.id, context.runId);
    if (!run) throw new RunStopped();
    const key = manifestKey(context.dataExport.destination.pathPrefix, context.runId);
    const manifest = manifestOf(context.dataExport, run, status, error, this.clock.now());
    await context.bucket.put(key, JSON.stringify(manifest, null, 2), { contentType: "application/json" });
    return key;
  }
}

/**
 * Stored as the gzip bytes they are, without `Content-Encoding: gzip`: with it, some clients and
 * GCS (decompressive transcoding) would hand out the uncompressed text under a `.gz` name.
 */
const JSONL = { contentType: "application/gzip" } as const;

const withEventCursor = (watermarks: Watermarks, dataset: EventDataset, cursor: EventCursor): Watermarks => ({
  ...watermarks,
  events: { ...watermarks.events, [dataset]: cursor },
});
