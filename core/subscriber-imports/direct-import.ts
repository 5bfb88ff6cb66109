import type { Clock } from "../ports/clock.js";
import type { Delay } from "../ports/delay.js";
import type { IdGenerator } from "../ports/id-generator.js";
import { notFound } from "../shared/errors.js";
import { fail, must, ok, type Result } from "../shared/result.js";
import type { DuplicateStrategy, OptInMode } from "../subscribers/model.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import { chunkFailureReason } from "./advance-import.js";
import { importChunk } from "./import-chunk.js";
import { newImport, transition, type ImportEvent, type SubscriberImport } from "./model.js";
import type { ImportStepWork, SubscriberImportRepository } from "./ports.js";
import type { ReadChunkContext } from "./chunk-context.js";
import { tallyRows } from "./rows.js";

export interface DirectImportInput {
  readonly fileName: string | null;
  readonly duplicateStrategy: DuplicateStrategy;
  /** List IDs (or names, created when missing) every added or updated contact joins. */
  readonly lists: readonly string[];
  /** Whether the contacts it creates are asked to confirm (default: the company's double opt-in setting). */
  readonly optInMode?: OptInMode;
  /** Whether its contacts start the sequences of the lists they join and the tags they get, as an API import's `enrollInSequences` (default false). */
  readonly enrollInSequences?: boolean;
}

/** Attempts of one chunk before its rows are counted as failed (a busy database, a lost connection). */
const CHUNK_ATTEMPTS = 3;

/**
 * An import run in-process by the caller, chunk by chunk, without storing the rows or a job (the
 * CLI streams a file of any size through it). Each chunk is counted and written in one
 * transaction through the same chunk processor as API imports.
 */
export class DirectImport {
  constructor(
    private readonly imports: SubscriberImportRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly tenancy: TenancyRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly delay: Delay,
    private readonly chunkContext: ReadChunkContext,
  ) {}

  /** Creates the import record (running, no rows yet). */
  start = async (companyId: string, input: DirectImportInput): Promise<Result<SubscriberImport>> => {
    if (!(await this.tenancy.findCompany(companyId))) return fail(notFound(`Company not found: ${companyId}`));
    const now = this.clock.now();
    const lists = input.lists.length ? await this.subscribers.resolveLists(companyId, input.lists, now) : { ids: [], unknownIds: [] };
    if (lists.unknownIds.length > 0) return fail(notFound(`List not found: ${lists.unknownIds.join(", ")}`));
    const options = {
      duplicateStrategy: input.duplicateStrategy,
      listIds: lists.ids,
      enrollInSequences: input.enrollInSequences ?? false,
      optInMode: input.optInMode ?? "default",
    };
    const created = newImport(this.ids.next("imp"), companyId, input.fileName, null, options, now);
    const { subscriberImport } = await this.imports.insertOrFind(must(transition(created, { type: "start" }, now)), []);
    return ok(subscriberImport);
  };

  /**
   * Adds rows to the import and writes them. `seen` holds the emails of the import's earlier
   * rows (it is updated), so a repeated email is skipped as a duplicate whatever chunk it is in.
   * Under double opt-in, the contacts the chunk creates start unconfirmed in its transaction, with
   * the job that emails them.
   */
  addChunk = async (subscriberImport: SubscriberImport, data: readonly unknown[], seen: Set<string>): Promise<SubscriberImport> => {
    const { rows, tally } = tallyRows(data, seen);
    const context = await this.chunkContext.execute(subscriberImport);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.apply(subscriberImport, async (current, tx) => {
          const now = this.clock.now();
          const added = must(transition(current, { type: "chunkAdded", tally }, now));
          const chunk = await importChunk(added, rows, tx, () => this.ids.next("sub"), now, context);
          return must(transition(added, { type: "chunkProcessed", outcome: chunk.outcome }, now));
        });
      } catch (error) {
        if (attempt < CHUNK_ATTEMPTS) {
          await this.delay.sleep(200 * attempt);
          continue;
        }
        const reason = chunkFailureReason(error);
        return this.apply(subscriberImport, async (current) => {
          const added = must(transition(current, { type: "chunkAdded", tally }, this.clock.now()));
          return must(transition(added, { type: "chunkFailed", rows: rows.length, reason }, this.clock.now()));
        });
      }
    }
  };

  /** Every row is written: the import completes. */
  finish = (subscriberImport: SubscriberImport): Promise<SubscriberImport> => this.applyEvent(subscriberImport, { type: "finish" });

  /** The caller cannot go on (unreadable file, interrupted): the import fails with `error`. */
  abort = (subscriberImport: SubscriberImport, error: string): Promise<SubscriberImport> => this.applyEvent(subscriberImport, { type: "fail", error });

  private applyEvent(subscriberImport: SubscriberImport, event: ImportEvent): Promise<SubscriberImport> {
    return this.apply(subscriberImport, async (current) => must(transition(current, event, this.clock.now())));
  }

  private async apply(
    subscriberImport: SubscriberImport,
    work: (current: SubscriberImport, tx: ImportStepWork) => Promise<SubscriberImport>,
  ): Promise<SubscriberImport> {
    const after = await this.imports.step(subscriberImport.companyId, subscriberImport.id, work);
    if (!after) throw new Error(`import ${subscriberImport.id} vanished`);
    return after;
  }
}
