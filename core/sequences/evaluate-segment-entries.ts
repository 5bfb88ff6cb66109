import * as t from "io-ts";
import { defineJob, type WorkOf } from "../jobs/job-definition.js";
import type { Clock } from "../ports/clock.js";
import type { JobQueue } from "../ports/job-queue.js";
import { checkedDefinition } from "../segments/checked-definition.js";
import type { SegmentDefinition, SegmentRepository } from "../segments/ports.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { EnrollContact } from "./enroll-contact.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import { keepsEntryKey } from "./entry-key.js";
import type { Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import type { SegmentWatches, TriggerStore } from "./trigger-ports.js";

/** Contacts entering (or leaving) handled per batch; a job handles a few batches, then queues the rest. */
export const SEGMENT_BATCH = 500;
const BATCHES_PER_JOB = 10;

/** The `failedReason` of an enrollment stopped because its contact left the segment. */
export const LEFT_SEGMENT = "the contact left the segment";

/** Evaluates one segment_entered sequence's segment against what it remembers. */
export const EvaluateSegmentJob = defineJob({
  type: "sequences.segment_entries",
  company: "required",
  payload: t.type({ sequenceId: t.string }),
  maxAttempts: 10,
});

/** Every five minutes: an evaluation job for each enabled segment_entered sequence. */
export const SWEEP_SEGMENT_ENTRIES_JOB = "sequences.sweep_segment_entries";
export const SEGMENT_SWEEP_MS = 5 * 60 * 1000;

// The sweep's job is one per sequence at a time; the job's own continuation cannot take its key while it runs.
const evaluationJob = (sequence: Pick<Sequence, "id" | "companyId">, continuation = false) =>
  EvaluateSegmentJob.request(
    { sequenceId: sequence.id },
    { companyId: sequence.companyId, ...(continuation ? {} : { singletonKey: `sequences.segment_entries:${sequence.id}` }) },
  );

/**
 * The `segment_entered` trigger, by periodic evaluation: the sequence remembers who was in its
 * segment, and each evaluation enrolls those who entered since (the first one only records who
 * is there: a contact enters the sequence by entering the segment while it is live). With
 * `stopOnSegmentExit`, those who left the segment leave the sequence (`cancelled`). Contacts who
 * enter while new entries are paused are remembered, not enrolled.
 */
export class EvaluateSegmentEntries {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly segments: SegmentRepository,
    private readonly watches: SegmentWatches,
    private readonly store: TriggerStore,
    private readonly subscribers: SubscriberRepository,
    private readonly enrollments: EnrollmentRepository,
    private readonly enroll: EnrollContact,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  sweep = async (): Promise<void> => {
    for (const sequence of await this.store.activeWithTrigger("segment_entered")) await this.jobs.enqueue(evaluationJob(sequence));
  };

  runJob = async ({ companyId, payload }: WorkOf<typeof EvaluateSegmentJob>): Promise<void> => {
    const sequence = await this.sequences.find(companyId, payload.sequenceId);
    if (!sequence || sequence.status !== "active" || sequence.trigger !== "segment_entered") return;
    const segmentId = String(sequence.triggerConfig.segmentId);
    const segment = await this.segments.find(companyId, segmentId);
    if (!segment) return;
    const now = this.clock.now();
    const definition = await checkedDefinition(this.segments, { companyId, segmentId, root: segment.root, now, docsUrl: "" });
    // A segment whose references broke matches no one until it is fixed: nothing moves meanwhile.
    if (definition._tag === "Left") return;

    let watch = await this.watches.find(companyId, sequence.id);
    if (!watch || watch.segmentId !== segmentId) {
      await this.watches.restart(companyId, sequence.id, segmentId);
      watch = { segmentId, seeded: false };
    }
    const more = watch.seeded ? await this.evaluate(sequence, definition.right, now) : await this.seed(sequence, definition.right, now);
    if (more) await this.jobs.enqueue(evaluationJob(sequence, true));
  };

  /** Records who is in the segment, enrolling no one. Resolves to whether batches are left. */
  private async seed(sequence: Sequence, definition: SegmentDefinition, now: Date): Promise<boolean> {
    for (let batch = 0; batch < BATCHES_PER_JOB; batch++) {
      const entered = await this.watches.takeEntered(sequence.id, definition, SEGMENT_BATCH, now);
      if (entered.length < SEGMENT_BATCH) {
        await this.watches.markSeeded(sequence.companyId, sequence.id, now);
        return false;
      }
    }
    return true;
  }

  /** Enrolls who entered and stops who left. Resolves to whether batches are left. */
  private async evaluate(sequence: Sequence, definition: SegmentDefinition, now: Date): Promise<boolean> {
    for (let batch = 0; batch < BATCHES_PER_JOB; batch++) {
      const exited = await this.watches.takeExited(sequence.id, definition, SEGMENT_BATCH);
      if (exited.length > 0 && sequence.triggerConfig.stopOnSegmentExit === true)
        await this.enrollments.cancelRunning(sequence.companyId, sequence.id, exited, { reason: LEFT_SEGMENT, keepEntryKey: keepsEntryKey(sequence), at: now });
      const entered = await this.watches.takeEntered(sequence.id, definition, SEGMENT_BATCH, now);
      if (!sequence.enrollmentPaused)
        for (const subscriberId of entered) {
          const contact = await this.subscribers.findById(sequence.companyId, subscriberId);
          if (contact) await this.enroll.execute(sequence, contact, { context: {}, source: "trigger", at: now });
        }
      if (exited.length < SEGMENT_BATCH && entered.length < SEGMENT_BATCH) return false;
    }
    return true;
  }
}
