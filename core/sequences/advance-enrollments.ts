import type { WorkOf } from "../jobs/job-definition.js";
import type { Clock } from "../ports/clock.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { Enrollment } from "./enrollment.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import { advanceEnrollmentsJob, type AdvanceEnrollmentsJob } from "./engine-jobs.js";
import type { Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import type { RunStep } from "./run-step.js";

/** Due enrollments claimed per query. */
export const ENROLLMENT_BATCH = 100;
/** Steps one enrollment takes in one run without a wait (graphs have no loop without a delay). */
const MAX_STEPS_IN_A_ROW = 200;
/** Companies the sweep hands an advance job per run. */
const SWEEP_LIMIT = 10_000;

/**
 * The engine: each run takes the company's enrollments that are due, oldest first, in batches,
 * and moves each through its steps until it waits or finishes. Every step is recorded in the
 * transaction that moves the enrollment on, from the step count read, so a run that repeats a
 * step (a retried job) records nothing twice and the email step finds its earlier send.
 */
export class AdvanceEnrollments {
  constructor(
    private readonly enrollments: EnrollmentRepository,
    private readonly sequences: SequenceRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly runStep: RunStep,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  runJob = async ({ companyId }: WorkOf<typeof AdvanceEnrollmentsJob>): Promise<void> => {
    await this.execute(companyId);
  };

  /** The sweep: hands each company with due enrollments an advance job (one per company at a time). */
  sweep = async (): Promise<number> => {
    const companies = await this.enrollments.companiesWithDue(this.clock.now(), SWEEP_LIMIT);
    for (const companyId of companies) await this.jobs.enqueue(advanceEnrollmentsJob(companyId));
    return companies.length;
  };

  /**
   * Runs batches until none is due. The job's singleton key keeps one run per company, and a run
   * goes on while enrollments keep coming: one enqueued while the run is ending (its key still
   * taken) is found by the next sweep, within a minute.
   */
  execute = async (companyId: string): Promise<void> => {
    // Each enrollment at each step count, once per run: one that stays due unmoved is left to a later run, not spun on.
    const tried = new Set<string>();
    for (;;) {
      const due = (await this.enrollments.due(companyId, this.clock.now(), ENROLLMENT_BATCH)).filter(
        (enrollment) => !tried.has(`${enrollment.id}:${enrollment.stepCount}`),
      );
      if (due.length === 0) return;
      const sequences = new Map<string, Sequence | null>();
      for (const enrollment of due) {
        tried.add(`${enrollment.id}:${enrollment.stepCount}`);
        if (!sequences.has(enrollment.sequenceId)) sequences.set(enrollment.sequenceId, await this.sequences.find(companyId, enrollment.sequenceId));
        const sequence = sequences.get(enrollment.sequenceId);
        // Disabled since the batch was read: its enrollments wait where they are.
        if (!sequence || sequence.status !== "active") continue;
        await this.advance(sequence, enrollment);
      }
    }
  };

  private async advance(sequence: Sequence, start: Enrollment): Promise<void> {
    let enrollment = start;
    for (let steps = 0; steps < MAX_STEPS_IN_A_ROW; steps++) {
      const contact = await this.subscribers.findById(enrollment.companyId, enrollment.subscriberId);
      if (!contact) return; // deleted: its enrollments go with it
      const now = this.clock.now();
      const { next, record } = await this.runStep.execute(sequence, enrollment, contact, now);
      if (!(await this.enrollments.advance(enrollment, next, record))) return; // another run moved it first
      enrollment = { ...enrollment, ...next, stepCount: enrollment.stepCount + 1, updatedAt: now };
      if (enrollment.status !== "active" || (enrollment.dueAt !== null && enrollment.dueAt > now)) return;
    }
  }
}
