import * as t from "io-ts";
import { defineJob, type WorkOf } from "../jobs/job-definition.js";
import type { Clock } from "../ports/clock.js";
import type { JobQueue, JobRequest } from "../ports/job-queue.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { EnrollContact } from "./enroll-contact.js";
import type { Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import type { TriggerStore } from "./trigger-ports.js";

/** Contacts claimed per job: each batch is one job, the next one carries on after its last contact. */
export const INACTIVITY_BATCH = 500;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Enrolls one batch of an inactivity sequence's due contacts, after the contact ID `after`. */
export const EnrollInactiveJob = defineJob({
  type: "sequences.inactivity",
  company: "required",
  payload: t.type({ sequenceId: t.string, after: t.union([t.string, t.null]) }),
  maxAttempts: 10,
});

/** Every hour: a batch job for each enabled inactivity sequence. */
export const SWEEP_INACTIVITY_JOB = "sequences.sweep_inactivity";
export const INACTIVITY_SWEEP_MS = 60 * 60 * 1000;

// The key names the batch, so a sweep never queues a chain twice while its first batch waits.
const batchJob = (sequence: Pick<Sequence, "id" | "companyId">, after: string | null): JobRequest =>
  EnrollInactiveJob.request(
    { sequenceId: sequence.id, after },
    { companyId: sequence.companyId, singletonKey: `sequences.inactivity:${sequence.id}:${after ?? ""}` },
  );

/**
 * The `inactivity` trigger: a contact enters once it has had no activity (custom event, or a
 * person's open or click) for `inactiveDays`, counted from its last activity, or, with none, from
 * the baseline: the sequence's creation (`sequence_created_at`, the default, so existing contacts
 * get the full delay) or the contact's signup (`subscriber_created_at`). It enters again only
 * after it has been active since. A periodic sweep queues one job per sequence, which claims the
 * due contacts in batches in ID order, each batch queuing the next.
 */
export class EnrollInactiveContacts {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly store: TriggerStore,
    private readonly subscribers: SubscriberRepository,
    private readonly enroll: EnrollContact,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  sweep = async (): Promise<void> => {
    for (const sequence of await this.store.activeWithTrigger("inactivity")) await this.jobs.enqueue(batchJob(sequence, null));
  };

  /** Resolves to how many contacts entered. */
  runJob = async ({ companyId, payload }: WorkOf<typeof EnrollInactiveJob>): Promise<number> => {
    const sequence = await this.sequences.find(companyId, payload.sequenceId);
    if (!sequence || sequence.status !== "active" || sequence.enrollmentPaused || sequence.trigger !== "inactivity") return 0;
    const now = this.clock.now();
    const inactiveSince = new Date(now.getTime() - Number(sequence.triggerConfig.inactiveDays) * DAY_MS);
    if (sequence.triggerConfig.inactivityBaseline !== "subscriber_created_at" && sequence.createdAt > inactiveSince) return 0;
    const batch = await this.store.inactiveContacts(sequence, { inactiveSince, after: payload.after, limit: INACTIVITY_BATCH });
    let entered = 0;
    for (const subscriberId of batch) {
      const contact = await this.subscribers.findById(companyId, subscriberId);
      if (!contact) continue;
      const enrolled = await this.enroll.execute(sequence, contact, { context: {}, source: "trigger", at: now });
      if (typeof enrolled !== "string") entered += 1;
    }
    if (batch.length === INACTIVITY_BATCH) await this.jobs.enqueue(batchJob(sequence, batch.at(-1)!));
    return entered;
  };
}
