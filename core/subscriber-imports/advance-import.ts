import * as t from "io-ts";
import { defineJob, type WorkOf } from "../jobs/job-definition.js";
import { onLastAttempt } from "../jobs/last-attempt.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Job, JobQueue, JobRequest } from "../ports/job-queue.js";
import { must } from "../shared/result.js";
import { importChunk } from "./import-chunk.js";
import { CHUNK_SIZE, isTerminal, transition, type SubscriberImport } from "./model.js";
import type { ImportStepWork, SubscriberImportRepository } from "./ports.js";
import type { ChunkContext, ReadChunkContext } from "./chunk-context.js";

/** The job that advances one import by one chunk. */
export const ADVANCE_IMPORT_JOB = "subscriber_imports.advance";
/** Attempts of one step (1 s, 2 s, 4 s, 8 s apart) before its chunk is counted as failed. */
export const STEP_ATTEMPTS = 5;

export const AdvanceImportJob = defineJob({
  type: ADVANCE_IMPORT_JOB,
  company: "required",
  payload: t.type({ importId: t.string }),
  maxAttempts: STEP_ATTEMPTS,
});

export const advanceImportJob = (subscriberImport: Pick<SubscriberImport, "id" | "companyId">): JobRequest =>
  AdvanceImportJob.request({ importId: subscriberImport.id }, { companyId: subscriberImport.companyId });

/**
 * Why a chunk could not be written, short enough to be a `failedChunkReasons` key: the first
 * line of the error, without the statement a database driver puts before ` - `.
 */
export function chunkFailureReason(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
  const reason = message
    .slice(message.lastIndexOf(" - ") + 1)
    .replace(/^- /, "")
    .trim();
  return (reason || "unknown error").slice(0, 200);
}

/**
 * One step of an import, in one transaction that holds it: start it if queued, write its next
 * stored chunk and mark the chunk done with the counters, and complete it after the last chunk;
 * then enqueue the next step. The import holds all the progress, so a worker killed at any point
 * loses nothing: the step runs again from what was saved, and a chunk is never written twice.
 * Under double opt-in, the contacts a chunk creates start unconfirmed in that transaction, with the
 * job that emails them.
 */
export class AdvanceImport {
  constructor(
    private readonly imports: SubscriberImportRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly chunkContext: ReadChunkContext,
  ) {}

  /** The job handler: on the step's last attempt, an error fails its chunk's rows and the import goes on. */
  runJob = ({ companyId, payload: { importId } }: WorkOf<typeof AdvanceImportJob>, job: Job): Promise<void> =>
    onLastAttempt(
      job,
      () => this.execute(companyId, importId),
      async (error) => {
        await this.advance(companyId, importId, (current, tx) => this.failChunk(current, tx, chunkFailureReason(error)));
      },
    );

  /** Runs one step; resolves to the import after it (null when it does not exist). */
  execute = async (companyId: string, importId: string): Promise<SubscriberImport | null> => {
    const subscriberImport = await this.imports.find(companyId, importId);
    if (!subscriberImport) return null;
    const context = await this.chunkContext.execute(subscriberImport);
    return this.advance(companyId, importId, (current, tx) => this.writeChunk(current, tx, context));
  };

  private async advance(
    companyId: string,
    importId: string,
    work: (current: SubscriberImport, tx: ImportStepWork) => Promise<SubscriberImport>,
  ): Promise<SubscriberImport | null> {
    const after = await this.imports.step(companyId, importId, async (subscriberImport, tx) => {
      if (isTerminal(subscriberImport.status)) return null;
      const now = this.clock.now();
      const started = subscriberImport.status === "queued" ? must(transition(subscriberImport, { type: "start" }, now)) : subscriberImport;
      const current = await work(started, tx);
      return current.processedChunks === current.chunkCount ? must(transition(current, { type: "finish" }, now)) : current;
    });
    if (after && !isTerminal(after.status)) await this.jobs.enqueue(advanceImportJob(after));
    return after;
  }

  private async writeChunk(current: SubscriberImport, tx: ImportStepWork, context: ChunkContext): Promise<SubscriberImport> {
    const chunk = await tx.nextChunk();
    if (!chunk) return current;
    const now = this.clock.now();
    const { outcome } = await importChunk(current, chunk.rows, tx, () => this.ids.next("sub"), now, context);
    await tx.markDone(chunk.index);
    return must(transition(current, { type: "chunkProcessed", outcome }, now));
  }

  /** Counts the next chunk's rows as failed without reading them: API imports store CHUNK_SIZE rows per chunk. */
  private async failChunk(current: SubscriberImport, tx: ImportStepWork, reason: string): Promise<SubscriberImport> {
    const index = await tx.nextChunkIndex();
    if (index === null) return current;
    await tx.markDone(index);
    const rows = Math.max(0, Math.min(CHUNK_SIZE, current.totalRows - index * CHUNK_SIZE));
    return must(transition(current, { type: "chunkFailed", rows, reason }, this.clock.now()));
  }
}
