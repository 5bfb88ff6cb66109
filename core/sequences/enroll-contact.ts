import type { OptInRepository } from "../opt-in/ports.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Subscriber } from "../subscribers/model.js";
import type { Enrollment, EnrollmentContext, EnrollmentSource } from "./enrollment.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import { advanceEnrollmentsJob } from "./engine-jobs.js";
import { entryKeyFor } from "./entry-key.js";
import { TRIGGER_NODE, type Sequence } from "./model.js";

/** Why a contact is not enrolled. */
export type EnrollmentRefusal = "not_active" | "unconfirmed" | "already_enrolled" | "missing_field";

/**
 * Puts one contact into one sequence, at `targetNodeId` or the first step after the trigger.
 * Only active contacts that are not waiting for a double opt-in confirmation enter; a contact
 * already on its way through the sequence (or, for one_time sequences, ever enrolled; for
 * matching_field ones, ever enrolled with the same value) does not enter again: the unique entry
 * key decides, even for concurrent triggers. A matching_field sequence takes no contact whose
 * field has no value.
 */
export class EnrollContact {
  constructor(
    private readonly enrollments: EnrollmentRepository,
    private readonly optIns: OptInRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
  ) {}

  /** Why the contact may not enter any sequence now, or null. */
  refusal = async (contact: Subscriber): Promise<EnrollmentRefusal | null> => {
    if (contact.status !== "active") return "not_active";
    const optIn = await this.optIns.find(contact.companyId, contact.id);
    return optIn && !optIn.confirmedAt ? "unconfirmed" : null;
  };

  /** The first node a contact runs: the one after the trigger. */
  static firstNodeId(sequence: Sequence): string {
    const trigger = sequence.graph.nodes.find((node) => node.nodeType === TRIGGER_NODE)!;
    return sequence.graph.edges.find((edge) => edge.sourceNodeId === trigger.id)!.targetNodeId;
  }

  execute = async (
    sequence: Sequence,
    contact: Subscriber,
    options: { readonly context: EnrollmentContext; readonly source: EnrollmentSource; readonly at: Date; readonly targetNodeId?: string | undefined },
  ): Promise<Enrollment | EnrollmentRefusal> => {
    const refusal = await this.refusal(contact);
    if (refusal) return refusal;
    const key = entryKeyFor(sequence, contact, options.context);
    if (!key) return "missing_field";
    const enrollment: Enrollment = {
      id: this.ids.next("enr"),
      companyId: sequence.companyId,
      sequenceId: sequence.id,
      subscriberId: contact.id,
      status: "active",
      currentNodeId: options.targetNodeId ?? EnrollContact.firstNodeId(sequence),
      entryKey: key.entryKey,
      stepCount: 0,
      dueAt: options.at,
      waitUntil: null,
      context: key.enrollmentKey === null ? options.context : { ...options.context, enrollmentKey: key.enrollmentKey },
      failedReason: null,
      source: options.source,
      startedAt: options.at,
      updatedAt: options.at,
      finishedAt: null,
    };
    if (!(await this.enrollments.insert(enrollment))) return "already_enrolled";
    // A draft or disabled sequence keeps it until it is enabled: the sweep finds it then.
    if (sequence.status === "active") await this.jobs.enqueue(advanceEnrollmentsJob(sequence.companyId));
    return enrollment;
  };
}
