import type { ContactEnrollments } from "../subscribers/ports.js";
import type { ContactEnrollmentView } from "../subscribers/view.js";
import type { EnrollmentRepository } from "./enrollment-ports.js";
import { labelOf } from "./enrollment-view.js";
import type { Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";

/** Runs listed on a contact's detail, at most. */
export const CONTACT_ENROLLMENTS_SHOWN = 50;

/**
 * The runs of a contact through sequences for its detail (`sequenceEnrollments`, compat-reference
 * §3): latest started first, with each sequence's name and status and the node the run is at.
 */
export class ContactEnrollmentViews implements ContactEnrollments {
  constructor(
    private readonly enrollments: EnrollmentRepository,
    private readonly sequences: SequenceRepository,
  ) {}

  ofContact = async (companyId: string, subscriberId: string): Promise<ContactEnrollmentView[]> => {
    const runs = await this.enrollments.ofContact(companyId, subscriberId, CONTACT_ENROLLMENTS_SHOWN);
    const sequences = new Map<string, Sequence | null>();
    for (const sequenceId of new Set(runs.map((run) => run.sequenceId))) sequences.set(sequenceId, await this.sequences.find(companyId, sequenceId));
    return runs.map((run) => {
      const sequence = sequences.get(run.sequenceId) ?? null;
      const node = sequence?.graph.nodes.find((candidate) => candidate.id === run.currentNodeId);
      return {
        tokenId: run.id,
        sequenceId: run.sequenceId,
        sequenceName: sequence?.name ?? null,
        sequenceStatus: sequence?.status ?? null,
        enrollmentStatus: run.status,
        currentNodeId: run.currentNodeId,
        currentNodeType: node?.nodeType ?? null,
        currentNodeLabel: node ? labelOf(node.config) : null,
        enteredAt: run.startedAt.toISOString(),
        scheduledFor: run.status === "waiting" ? (run.waitUntil?.toISOString() ?? null) : null,
        updatedAt: run.updatedAt.toISOString(),
      };
    });
  };
}
