import * as t from "io-ts";
import { defineJob, type WorkOf } from "../jobs/job-definition.js";
import { onLastAttempt } from "../jobs/last-attempt.js";
import type { ListRepository } from "../lists/ports.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Job, JobRequest } from "../ports/job-queue.js";
import type { SecretBox } from "../ports/secret-box.js";
import { must } from "../shared/result.js";
import { chunkFailureReason } from "../subscriber-imports/advance-import.js";
import type { DirectImport } from "../subscriber-imports/direct-import.js";
import { isTerminal, newImport, transition as importTransition, type SubscriberImport } from "../subscriber-imports/model.js";
import type { SubscriberImportRepository } from "../subscriber-imports/ports.js";
import { readRow } from "../subscriber-imports/rows.js";
import { CursorWindow } from "./cursor-window.js";
import { isActiveRun, ROWS_PER_BATCH, runTransition, transition, type WarehouseSync, type WarehouseSyncRun } from "./model.js";
import { WarehouseError, type WarehouseConnectionRepository, type WarehouseReader, type WarehouseRow, type WarehouseSyncRepository } from "./ports.js";
import { isUnchanged, mapRow } from "./row-mapping.js";
import { RunTally } from "./run-tally.js";

/** The job that runs one warehouse sync run from start to end. */
export const RUN_WAREHOUSE_SYNC_JOB = "warehouse_syncs.run";
/** Starts of a run before it is failed (a worker that died, a database that did not answer). */
export const RUN_ATTEMPTS = 3;

export const RunWarehouseSyncJob = defineJob({
  type: RUN_WAREHOUSE_SYNC_JOB,
  company: "required",
  payload: t.type({ runId: t.string }),
  maxAttempts: RUN_ATTEMPTS,
});

export const runSyncJob = (run: Pick<WarehouseSyncRun, "id" | "companyId">): JobRequest =>
  RunWarehouseSyncJob.request({ runId: run.id }, { companyId: run.companyId, singletonKey: `warehouse_sync_run:${run.id}` });

/** A run's rows as read, each with its position among the rows the run read (from 1). */
interface NumberedRow {
  readonly number: number;
  readonly row: WarehouseRow;
}

/** Why a run could not finish, as lastError shows it. */
class RunFailure extends Error {}

/** What a run has done so far: kept by the caller, so that a failure still records it. */
interface RunState {
  readonly tally: RunTally;
  readonly importIds: string[];
  subscriberImport: SubscriberImport | null;
}

/**
 * Runs one run of a sync: reads the query's rows past the cursor (all of them for a full
 * resync), in cursor order, at most maxRowsPerRun; maps each row; counts the rows that would
 * change nothing as unchanged; and writes the others through the import pipeline (one import per
 * run, merging into existing contacts and joining the sync's lists). A success moves the cursor to
 * the last row synced; a failure (warehouse unreachable, query refused or timed out) leaves the
 * cursor where it was, so the next run reads the same rows again.
 */
export class RunWarehouseSync {
  constructor(
    private readonly syncs: WarehouseSyncRepository,
    private readonly connections: WarehouseConnectionRepository,
    private readonly lists: ListRepository,
    private readonly reader: WarehouseReader,
    private readonly secrets: SecretBox,
    private readonly imports: SubscriberImportRepository,
    private readonly directImport: DirectImport,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** The job handler: on the run's last attempt, an unexpected error also fails the run (and its imports). */
  runJob = ({ companyId, payload: { runId } }: WorkOf<typeof RunWarehouseSyncJob>, job: Job): Promise<void> =>
    onLastAttempt(
      job,
      () => this.execute(companyId, runId),
      async (error) => {
        const run = await this.syncs.findRun(companyId, runId);
        if (!run) return;
        await this.end(run, null, `The run could not finish: ${chunkFailureReason(error)}`);
        await this.abortEarlierImports(run);
      },
    );

  /** Runs the run to its end; resolves to it (null when it does not exist). */
  execute = async (companyId: string, runId: string): Promise<WarehouseSyncRun | null> => {
    const queued = await this.syncs.findRun(companyId, runId);
    if (!queued || !isActiveRun(queued.status)) return queued;
    const started = await this.syncs.update(companyId, queued.syncId, async (sync, tx) => {
      const current = await tx.findRun(runId);
      if (!current || !isActiveRun(current.status)) return null;
      const now = this.clock.now();
      const run = must(runTransition(current, { type: "start" }, now));
      const next = must(transition(sync, { type: "runStarted" }, now));
      await tx.saveRun(run);
      await tx.save(next);
      return { run, sync: next };
    });
    if (!started) return this.syncs.findRun(companyId, runId);
    const { sync } = started;
    const run = started.run;
    await this.abortEarlierImports(run);

    const state: RunState = { tally: new RunTally(), importIds: [...run.subscriberImportIds], subscriberImport: null };
    const progress = (): WarehouseSyncRun => ({
      ...run,
      ...state.tally.snapshot.counts,
      errorSamples: state.tally.snapshot.errorSamples,
      subscriberImportIds: state.importIds,
    });
    try {
      const result = await this.readAndImport(sync, run, state, () => this.syncs.saveRun(progress()));
      if (state.subscriberImport) state.subscriberImport = await this.directImport.finish(state.subscriberImport);
      return await this.end(progress(), result, null);
    } catch (error) {
      const message = error instanceof RunFailure ? error.message : error instanceof WarehouseError ? describeWarehouseError(error) : null;
      if (message === null) throw error;
      if (state.subscriberImport) await this.directImport.abort(state.subscriberImport, message);
      return this.end(progress(), null, message);
    }
  };

  /** Saves the end of the run and of its turn on the sync, together. */
  private async end(
    run: WarehouseSyncRun,
    result: { cursorTo: string | null; rowLimitReached: boolean } | null,
    error: string | null,
  ): Promise<WarehouseSyncRun | null> {
    return this.syncs.update(run.companyId, run.syncId, async (sync, tx) => {
      const current = await tx.findRun(run.id);
      if (!current || !isActiveRun(current.status)) return current;
      const now = this.clock.now();
      // The counts come from this attempt; the stored run may be a step behind them.
      const counted = { ...current, ...pickProgress(run) };
      const ended =
        error === null && result
          ? must(runTransition(counted, { type: "succeed", ...result }, now))
          : must(runTransition(counted, { type: "fail", error: error ?? "The run failed" }, now));
      const next =
        ended.status === "succeeded"
          ? transition(sync, { type: "runSucceeded", run: ended }, now)
          : transition(sync, { type: "runFailed", error: ended.error ?? "The run failed" }, now);
      await tx.saveRun(ended);
      // A sync whose status no longer says a run is under way keeps its state (nothing to move).
      if (next._tag === "Right") await tx.save(next.right);
      return ended;
    });
  }

  /** Imports a dead attempt of this run left running are failed: this attempt reads every row again. */
  private async abortEarlierImports(run: WarehouseSyncRun): Promise<void> {
    for (const id of run.subscriberImportIds) {
      const earlier = await this.imports.find(run.companyId, id);
      if (earlier && !isTerminal(earlier.status)) await this.directImport.abort(earlier, "The run was interrupted and started again");
    }
  }

  private async readAndImport(
    sync: WarehouseSync,
    run: WarehouseSyncRun,
    state: RunState,
    saveProgress: () => Promise<void>,
  ): Promise<{ cursorTo: string | null; rowLimitReached: boolean }> {
    for (const listId of sync.listIds) {
      if (!(await this.lists.find(sync.companyId, listId))) throw new RunFailure(`List not found: ${listId} (it was deleted; set the sync's listIds again)`);
    }
    const connection = await this.connections.find(sync.companyId, sync.connectionId);
    if (!connection) throw new RunFailure("The warehouse connection of this sync no longer exists");
    const source = { kind: connection.kind, url: this.secrets.open(connection.sealedUrl) };

    const window = new CursorWindow<NumberedRow & { cursor: string | null }>(sync.maxRowsPerRun, sync.cursorColumn !== null);
    const seenEmails = new Map<string, number>();
    const importSeen = new Set<string>();
    let counted = 0;
    // Rows go on in import chunks of ROWS_PER_BATCH (a group of equal cursors may come as one larger batch).
    const processBatch = async (rows: readonly NumberedRow[]) => {
      for (let start = 0; start < rows.length; start += ROWS_PER_BATCH) {
        const made = await this.processRows(sync, run, rows.slice(start, start + ROWS_PER_BATCH), state.tally, seenEmails, importSeen, state.subscriberImport);
        if (made) {
          if (!state.importIds.includes(made.id)) state.importIds.push(made.id);
          state.subscriberImport = made;
        }
        await saveProgress();
      }
    };

    const read = this.reader.read(source, {
      query: sync.query,
      cursorColumn: sync.cursorColumn,
      after: run.cursorFrom,
      // One row more than the cap tells whether rows are left for the next run.
      limit: sync.maxRowsPerRun + 1,
      statementTimeoutMs: sync.statementTimeoutSeconds * 1000,
      batchSize: ROWS_PER_BATCH,
    });
    for await (const batch of read) {
      const numbered = batch.map((row) => ({ number: ++counted, row, cursor: row.cursor }));
      await processBatch(window.push(numbered));
      if (window.full) break;
    }
    const end = window.end();
    if (end.rowLimitReached && end.cursorTo === null && end.deferred > 0 && sync.cursorColumn !== null) {
      throw new RunFailure(
        `More than ${sync.maxRowsPerRun} rows share one value of the cursor column ${sync.cursorColumn}: raise maxRowsPerRun or use a cursor column with more distinct values`,
      );
    }
    await processBatch(end.rows);
    return { cursorTo: end.cursorTo, rowLimitReached: end.rowLimitReached };
  }

  /** Maps, compares and imports one batch of rows; resolves to the run's import after it. */
  private async processRows(
    sync: WarehouseSync,
    run: WarehouseSyncRun,
    rows: readonly NumberedRow[],
    tally: RunTally,
    seenEmails: Map<string, number>,
    importSeen: Set<string>,
    current: SubscriberImport | null,
  ): Promise<SubscriberImport | null> {
    tally.read(rows.length);
    const contacts: Array<{ number: number; contact: Extract<ReturnType<typeof mapRow>, { kind: "contact" }> }> = [];
    for (const { number, row } of rows) {
      const mapped = mapRow(row.values, sync.mapping);
      if (mapped.kind === "skipped") tally.skip(number, mapped.reason);
      else if (mapped.kind === "failed") tally.fail(number, mapped.reason);
      else {
        const earlier = seenEmails.get(mapped.email);
        if (earlier !== undefined) tally.skip(number, `duplicate email address: row ${earlier} of this run has it`);
        else {
          seenEmails.set(mapped.email, number);
          contacts.push({ number, contact: mapped });
        }
      }
    }
    if (contacts.length === 0) return current;

    const stored = await this.syncs.findContacts(
      sync.companyId,
      contacts.map((c) => c.contact.email),
      sync.listIds,
    );
    const changed: Array<{ number: number; data: Record<string, unknown> }> = [];
    for (const { number, contact } of contacts) {
      if (isUnchanged(contact, stored.get(contact.email), sync.listIds)) {
        tally.unchanged();
        continue;
      }
      const data: Record<string, unknown> = { email: contact.email };
      if (contact.firstName !== null) data.firstName = contact.firstName;
      if (sync.mapping.attributes.length > 0) data.customAttributes = contact.attributes;
      // The import's own reading of the row: a row it would fail is counted here, with its number.
      const reading = readRow(data);
      if (reading.kind === "failed") tally.fail(number, `the contact cannot be stored: ${reading.reason}`);
      else changed.push({ number, data });
    }
    if (changed.length === 0) return current;

    const before = current ?? (await this.startImport(sync, run));
    const after = await this.directImport.addChunk(
      before,
      changed.map((c) => c.data),
      importSeen,
    );
    const first = changed[0]!.number;
    tally.synced(after.addedCount - before.addedCount + (after.updatedCount - before.updatedCount));
    tally.skippedByImport(after.skippedCount - before.skippedCount, first, "skipped by the import");
    const failed = after.failedCount - before.failedCount;
    const reasons = Object.keys(after.failedChunkReasons).filter(
      (reason) => (after.failedChunkReasons[reason] ?? 0) > (before.failedChunkReasons[reason] ?? 0),
    );
    tally.failedByImport(
      failed,
      first,
      `${failed} of the ${changed.length} changed rows from row ${first} could not be written${reasons.length ? `: ${reasons.join("; ")}` : ""}`,
    );
    return after;
  }

  /** The run's import: merges into existing contacts, joins the sync's lists, asks by optInMode, and with triggerAutomations starts the new contacts' sequences. */
  private async startImport(sync: WarehouseSync, run: WarehouseSyncRun): Promise<SubscriberImport> {
    const now = this.clock.now();
    const options = { duplicateStrategy: "merge" as const, listIds: sync.listIds, enrollInSequences: sync.triggerAutomations, optInMode: sync.optInMode };
    const created = newImport(
      this.ids.next("imp"),
      sync.companyId,
      `Warehouse sync: ${sync.name}`.slice(0, 255),
      `warehouse_sync_run:${run.id}:${run.attempts}`,
      options,
      now,
    );
    const { subscriberImport } = await this.imports.insertOrFind(must(importTransition(created, { type: "start" }, now)), []);
    return subscriberImport;
  }
}

function pickProgress(run: WarehouseSyncRun) {
  const { rowsRead, rowsUnchanged, rowsSynced, rowsSkipped, rowsFailed, errorSamples, subscriberImportIds } = run;
  return { rowsRead, rowsUnchanged, rowsSynced, rowsSkipped, rowsFailed, errorSamples, subscriberImportIds };
}

const describeWarehouseError = (error: WarehouseError): string =>
  error.kind === "connection" ? `Could not connect to the warehouse: ${error.message}` : `The warehouse query failed: ${error.message}`;
