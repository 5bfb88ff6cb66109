import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, notFound } from "../shared/errors.js";
import { fail, must, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { advanceImportJob } from "./advance-import.js";
import type { CreateImportCommand } from "./commands.js";
import { CHUNK_SIZE, MAX_IMPORT_ROWS, newImport, transition, type ImportOptions, type SubscriberImport } from "./model.js";
import type { StoredChunk, SubscriberImportRepository } from "./ports.js";
import { tallyRows } from "./rows.js";
import { toImportView, type ImportView } from "./view.js";

export interface CreatedImport {
  readonly import: ImportView;
  /** True when the idempotency key named an import created before: that one is returned. */
  readonly deduplicated: boolean;
}

/**
 * Accepts up to 5,000 rows, stores them in chunks with the import record, and leaves the writing
 * to the job (202). The idempotency key makes a retried request return the first import.
 */
export class CreateImport {
  constructor(
    private readonly imports: SubscriberImportRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, command: CreateImportCommand): Promise<Result<CreatedImport>> => {
    const rows = command.subscribers;
    if (rows.length === 0) return fail(badRequest("Provide at least one subscriber in subscribers"));
    if (rows.length > MAX_IMPORT_ROWS) {
      return fail(
        badRequest(`An import takes at most ${MAX_IMPORT_ROWS} subscribers per request (got ${rows.length}); split larger files into several imports`),
      );
    }
    const { companyId } = actor;
    const requestKey = command.idempotencyKey ?? null;
    if (requestKey) {
      const earlier = await this.imports.findByRequestKey(companyId, requestKey);
      if (earlier) return ok(await this.deduplicated(earlier));
    }

    const now = this.clock.now();
    const lists = command.listIds?.length ? await this.subscribers.resolveLists(companyId, command.listIds, now) : { ids: [], unknownIds: [] };
    if (lists.unknownIds.length > 0) return fail(notFound(`List not found: ${lists.unknownIds.join(", ")}`));

    const options: ImportOptions = {
      duplicateStrategy: command.duplicateStrategy ?? "skip",
      listIds: lists.ids,
      enrollInSequences: command.enrollInSequences ?? false,
      optInMode: command.optInMode ?? "default",
    };
    let subscriberImport = newImport(this.ids.next("imp"), companyId, command.fileName ?? null, requestKey, options, now);
    const seen = new Set<string>();
    const chunks: StoredChunk[] = [];
    for (let start = 0; start < rows.length; start += CHUNK_SIZE) {
      const { rows: chunkRows, tally } = tallyRows(rows.slice(start, start + CHUNK_SIZE), seen);
      chunks.push({ index: chunks.length, rows: chunkRows });
      subscriberImport = must(transition(subscriberImport, { type: "chunkAdded", tally }, now));
    }

    const stored = await this.imports.insertOrFind(subscriberImport, chunks);
    if (!stored.created) return ok(await this.deduplicated(stored.subscriberImport));
    await this.jobs.enqueue(advanceImportJob(stored.subscriberImport));
    return ok({ import: toImportView(stored.subscriberImport), deduplicated: false });
  };

  /**
   * The import an earlier request created. One still queued gets its step enqueued again, in case
   * the process that created it stopped before it could (a duplicate step does no harm).
   */
  private async deduplicated(earlier: SubscriberImport): Promise<CreatedImport> {
    if (earlier.status === "queued") await this.jobs.enqueue(advanceImportJob(earlier));
    return { import: toImportView(earlier), deduplicated: true };
  }
}
