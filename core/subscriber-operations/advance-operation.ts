import * as t from "io-ts";
import { defineJob, type WorkOf } from "../jobs/job-definition.js";
import { onLastAttempt } from "../jobs/last-attempt.js";
import type { Clock } from "../ports/clock.js";
import type { Job, JobQueue, JobRequest } from "../ports/job-queue.js";
import { must } from "../shared/result.js";
import { startSequencesJob } from "../sequences/trigger-jobs.js";
import { isTerminal, transition, type OperationEvent, type SubscriberOperation } from "./model.js";
import type { OperationStepWork, SubscriberOperationRepository } from "./ports.js";

/** The job that advances one operation by one step. */
export const ADVANCE_OPERATION_JOB = "subscriber_operations.advance";
/** Contacts of the selection queued per step. */
export const SELECTION_PAGE_SIZE = 500;
/** Queued contacts processed per step. */
export const PROCESS_BATCH_SIZE = 500;

/** The `error` of an operation whose steps kept failing. */
export const GAVE_UP = "The operation stopped after repeated errors; contacts processed before it stopped keep their tags";

export const AdvanceOperationJob = defineJob({
  type: ADVANCE_OPERATION_JOB,
  company: "required",
  payload: t.type({ operationId: t.string }),
});

export const advanceJob = (operation: Pick<SubscriberOperation, "id" | "companyId">): JobRequest =>
  AdvanceOperationJob.request({ operationId: operation.id }, { companyId: operation.companyId });

/**
 * One step of an operation, in one transaction that holds the operation: start it if queued,
 * process a batch of the contacts queued by earlier steps, queue the next page of its selection
 * (so `total` grows and is visible before those contacts are processed), and complete it once
 * the whole selection is processed; then enqueue the next step. Each
 * step saves its progress with its changes, so a worker killed at any point loses nothing: the
 * job runs again and carries on from what was saved. A cancelled operation is left alone, so
 * cancellation takes effect between batches.
 */
export class AdvanceOperation {
  constructor(
    private readonly operations: SubscriberOperationRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  /**
   * The job handler. An error is retried by the queue; on the job's last attempt it also fails the
   * operation, with a message for the user (the details stay in the worker's log).
   */
  runJob = ({ companyId, payload: { operationId } }: WorkOf<typeof AdvanceOperationJob>, job: Job): Promise<void> =>
    onLastAttempt(
      job,
      () => this.execute(companyId, operationId),
      () => this.apply(companyId, operationId, { type: "fail", error: GAVE_UP }),
    );

  /** Runs one step; resolves to the operation after it (null when it does not exist). */
  execute = async (companyId: string, operationId: string): Promise<SubscriberOperation | null> => {
    const after = await this.operations.step(companyId, operationId, (operation, tx) => this.step(operation, tx));
    if (after && !isTerminal(after.status)) await this.jobs.enqueue(advanceJob(after));
    return after;
  };

  private async step(operation: SubscriberOperation, tx: OperationStepWork): Promise<SubscriberOperation | null> {
    if (isTerminal(operation.status)) return null;
    const now = this.clock.now();
    let current = operation.status === "queued" ? must(transition(operation, { type: "start" }, now)) : operation;

    const batch = await tx.pending(PROCESS_BATCH_SIZE);
    if (batch.length > 0) {
      // Contacts deleted since they were selected cannot be tagged: they are the failures.
      const { changed, missing } = await tx.addTags(batch, current.params.tags, now);
      // triggerAutomations: the contacts given a tag they lacked start its tag_added sequences.
      if (current.params.triggerAutomations && changed.length > 0)
        await tx.enqueue(startSequencesJob(operation.companyId, changed, { trigger: "tag_added", tagNames: current.params.tags }), now);
      const gone = new Set(missing);
      const done = batch.filter((id) => !gone.has(id));
      await tx.settle(done, missing);
      const failures = missing.map((subscriberId) => ({ subscriberId, error: "Subscriber not found" }));
      current = must(transition(current, { type: "batchProcessed", succeeded: done.length, failures }, now));
    }

    if (!current.selectionComplete) {
      const page = await tx.selectAudience(current.params.audience, current.createdAt, await tx.lastQueuedId(), SELECTION_PAGE_SIZE);
      const total = page.length > 0 ? await tx.queue(page) : current.total;
      current = must(transition(current, { type: "selectionQueued", total, complete: page.length < SELECTION_PAGE_SIZE }, now));
    }

    if (current.selectionComplete && current.processed === current.total) current = must(transition(current, { type: "finish" }, now));
    return current;
  }

  private async apply(companyId: string, operationId: string, event: OperationEvent): Promise<void> {
    await this.operations.step(companyId, operationId, async (operation) =>
      isTerminal(operation.status) ? null : must(transition(operation, event, this.clock.now())),
    );
  }
}
