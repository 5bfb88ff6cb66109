import type { WorkOf } from "../jobs/job-definition.js";
import { BatchReads } from "../shared/batch-reads.js";
import { eachInFlight } from "../shared/each-in-flight.js";
import type { Clock } from "../ports/clock.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { TaggedSubscriber } from "../subscribers/model.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { Enrollment } from "./enrollment.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import { advanceEnrollmentsJob, type AdvanceEnrollmentsJob } from "./engine-jobs.js";
import { TRIGGER_NODE, type Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import type { RunStep } from "./run-step.js";

/** Due enrollments a batch takes: a new run waits at most for the batch being worked (about half a second). */
export const ENROLLMENT_BATCH = 50;
/** Of a batch, new runs taken first: the rest are the longest due, so neither kind waits for the other to run out. */
const NEW_RUNS_PER_BATCH = 25;
/**
 * Enrollments of a batch moved at the same time: their writes meet in the repositories' group
 * commits (the sends of several contacts go in one transaction, with one delivery job).
 */
export const ENROLLMENTS_IN_FLIGHT = 8;
/** Steps one enrollment takes in one run without a wait (graphs have no loop without a delay). */
const MAX_STEPS_IN_A_ROW = 200;
/** Node types that never write the contact: the step after one of them runs with the contact read before it. */
const LEAVES_CONTACT_AS_IT_WAS: ReadonlySet<string> = new Set([
  TRIGGER_NODE,
  "action_email",
  "logic_delay",
  "logic_wait_for_event",
  "logic_condition",
  "logic_branch",
  "action_webhook",
]);
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
   * Runs batches until none is due. Each batch takes new runs (no step taken yet) first, then the
   * longest due, so a burst of either kind does not hold the other back. The job's singleton key
   * keeps one run per company, and a run goes on while enrollments keep coming: one enqueued while
   * the run is ending (its key still taken) is found by the next sweep, within a minute.
   */
  execute = async (companyId: string): Promise<void> => {
    // Each enrollment at each step count, once per run: one that stays due unmoved is left to a later run, not spun on.
    const tried = new Set<string>();
    for (;;) {
      const now = this.clock.now();
      // New runs first: a contact who just signed up gets the first email while a day's follow-ups are still being worked.
      const fresh = await this.enrollments.dueNew(companyId, now, NEW_RUNS_PER_BATCH);
      const oldest = await this.enrollments.due(companyId, now, ENROLLMENT_BATCH - fresh.length);
      const taken = new Set<string>();
      const due = [...fresh, ...oldest].filter((enrollment) => {
        const key = `${enrollment.id}:${enrollment.stepCount}`;
        if (tried.has(key) || taken.has(key)) return false;
        taken.add(key);
        return true;
      });
      if (due.length === 0) return;
      const sequences = new Map<string, Sequence | null>();
      for (const enrollment of due) {
        tried.add(`${enrollment.id}:${enrollment.stepCount}`);
        if (!sequences.has(enrollment.sequenceId)) sequences.set(enrollment.sequenceId, await this.sequences.find(companyId, enrollment.sequenceId));
      }
      // A contact's runs in several sequences move one after the other: a step of one may write the contact another reads.
      const byContact = new Map<string, Enrollment[]>();
      for (const enrollment of due) {
        const runs = byContact.get(enrollment.subscriberId);
        if (runs) runs.push(enrollment);
        else byContact.set(enrollment.subscriberId, [enrollment]);
      }
      // The batch's contacts are read together; its emails share one read of the sender, tracking settings, theme and footer.
      const contacts = new Map((await this.subscribers.findByIds(companyId, [...byContact.keys()])).map((contact) => [contact.id, contact]));
      const reads = new BatchReads();
      await eachInFlight([...byContact.values()], ENROLLMENTS_IN_FLIGHT, async (runs) => {
        for (const [n, enrollment] of runs.entries()) {
          const sequence = sequences.get(enrollment.sequenceId);
          // Disabled since the batch was read: its enrollments wait where they are.
          if (!sequence || sequence.status !== "active") continue;
          // Deleted: its enrollments go with it. After another run of the contact, it is read again.
          const contact = n === 0 ? contacts.get(enrollment.subscriberId) : null;
          if (contact === undefined) return;
          await this.advance(sequence, enrollment, contact, reads);
        }
      });
    }
  };

  /** Moves one enrollment until it waits or ends, from the contact as read (null: reads it). */
  private async advance(sequence: Sequence, start: Enrollment, read: TaggedSubscriber | null, reads: BatchReads): Promise<void> {
    let enrollment = start;
    let contact = read;
    for (let steps = 0; steps < MAX_STEPS_IN_A_ROW; steps++) {
      contact ??= await this.subscribers.findById(enrollment.companyId, enrollment.subscriberId);
      if (!contact) return; // deleted: its enrollments go with it
      const now = this.clock.now();
      const { next, record } = await this.runStep.execute(sequence, enrollment, contact, now, reads);
      if (!(await this.enrollments.advance(enrollment, next, record))) return; // another run moved it first
      enrollment = { ...enrollment, ...next, stepCount: enrollment.stepCount + 1, updatedAt: now };
      if (enrollment.status !== "active" || (enrollment.dueAt !== null && enrollment.dueAt > now)) return;
      // The next step reads the contact again only after a step that may have changed it.
      if (!LEAVES_CONTACT_AS_IT_WAS.has(record.nodeType)) contact = null;
    }
  }
}
