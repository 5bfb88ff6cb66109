import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, invalidState } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { Subscriber } from "../subscribers/model.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { EnrollContact } from "./enroll-contact.js";
import { MAX_CONTACTS_PER_REQUEST, type EnrollCommand } from "./enrollment-commands.js";
import { toEnrollmentView, type EnrollmentView } from "./enrollment-view.js";
import { COMPLETION_NODE, SEQUENCE_NOT_FOUND, TRIGGER_NODE } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { toSequenceSummaryView, type SequenceSummaryView } from "./view.js";

export interface EnrollAnswer {
  readonly sequence: SequenceSummaryView;
  readonly enrollments: EnrollmentView[];
  readonly enrolled: number;
  readonly skipped: number;
  /** The emails and subscriber IDs that name no contact of the company. */
  readonly notFound: string[];
}

/**
 * POST /sequences/{id}/enroll: puts the named contacts (<= 500, by email or ID) into the
 * sequence at `targetNodeId` or its first step. Contacts not active, unconfirmed under double
 * opt-in, or already on their way (ever, for one_time) are skipped. A draft or disabled
 * sequence keeps them at their first step until it is enabled.
 */
export class EnrollInSequence {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly enroll: EnrollContact,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, sequenceId: string, input: EnrollCommand): Promise<Result<EnrollAnswer>> => {
    const emails = [...new Set(input.emails ?? [])];
    const ids = [...new Set(input.subscriberIds ?? [])];
    if (emails.length + ids.length === 0) return fail(badRequest("Give emails or subscriberIds: the contacts to enroll"));
    if (emails.length + ids.length > MAX_CONTACTS_PER_REQUEST)
      return fail(badRequest(`At most ${MAX_CONTACTS_PER_REQUEST} contacts per request (emails and subscriberIds together)`));
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    if (sequence.status === "archived") return fail(invalidState("The sequence is archived: unarchive it before enrolling contacts"));
    if (input.targetNodeId !== undefined) {
      const target = sequence.graph.nodes.find((node) => node.id === input.targetNodeId);
      if (!target) return fail(badRequest(`targetNodeId: the sequence has no node ${input.targetNodeId}`));
      if (target.nodeType === TRIGGER_NODE || target.nodeType === COMPLETION_NODE)
        return fail(badRequest(`targetNodeId: contacts enter at a step, not at the ${target.nodeType} node`));
    }

    const notFound: string[] = [];
    const contacts = new Map<string, Subscriber>();
    for (const email of emails) {
      const contact = await this.subscribers.findByEmail(actor.companyId, email);
      if (contact) contacts.set(contact.id, contact);
      else notFound.push(email);
    }
    for (const id of ids) {
      const contact = await this.subscribers.findById(actor.companyId, id);
      if (contact) contacts.set(contact.id, contact);
      else notFound.push(id);
    }

    const at = this.clock.now();
    const enrollments: EnrollmentView[] = [];
    let skipped = 0;
    for (const contact of contacts.values()) {
      const enrolled = await this.enroll.execute(sequence, contact, { context: {}, source: "api", at, targetNodeId: input.targetNodeId });
      if (typeof enrolled === "string") {
        skipped += 1;
        continue;
      }
      enrollments.push(
        toEnrollmentView(sequence, {
          ...enrolled,
          email: contact.email,
          firstName: contact.firstName,
          lastName: contact.lastName,
          subscriberStatus: contact.status,
        }),
      );
    }
    return ok({ sequence: toSequenceSummaryView(sequence), enrollments, enrolled: enrollments.length, skipped, notFound });
  };
}
