import type { ContactEvent } from "../events/contact-events.js";
import { isHistorical } from "../events/model.js";
import type { Clock } from "../ports/clock.js";
import type { Subscriber } from "../subscribers/model.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { EnrollContact } from "./enroll-contact.js";
import type { EnrollmentContext } from "./enrollment.js";
import type { Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import { passesFilters, type PropertyFilter } from "./property-filters.js";

/** Something that happened to a contact that may start sequences. */
export type TriggerOccurrence =
  | { readonly trigger: "contact_added" }
  | {
      readonly trigger: "event_received";
      readonly eventName: string;
      readonly properties: Readonly<Record<string, unknown>>;
      readonly occurredAt: Date;
    };

/** The event a contact's confirmation records (core/opt-in): a confirmed contact is a new contact to sequences. */
export const CONFIRMED_EVENT = "subscriber.confirmed";

function matches(sequence: Sequence, occurrence: TriggerOccurrence): boolean {
  if (sequence.trigger !== occurrence.trigger) return false;
  if (occurrence.trigger === "contact_added") return sequence.triggerConfig.listScope === "any_contact";
  const filters = (sequence.triggerConfig.propertyFilters as PropertyFilter[] | undefined) ?? [];
  return sequence.triggerConfig.eventName === occurrence.eventName && passesFilters(occurrence.properties, filters);
}

/**
 * The one entry point of triggers: whatever creates contacts or records events (the API
 * today; imports, forms and integrations later) tells it what happened, and every live sequence
 * taking new entries whose trigger matches enrolls the contact. Events over an hour old are
 * history and start nothing; contacts not active, or unconfirmed under double opt-in, are not
 * enrolled (their confirmation starts the contact_added sequences then).
 */
export class StartSequences {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly enroll: EnrollContact,
    private readonly clock: Clock,
  ) {}

  /** Resolves to the number of enrollments started. */
  execute = (contact: Subscriber, occurrence: TriggerOccurrence): Promise<number> => this.start(contact.companyId, async () => contact, occurrence);

  /** The listener of recorded custom events (ContactEvents). */
  onEvent = async (event: ContactEvent): Promise<void> => {
    if (event.historical) return;
    // The contact is read only when a live sequence listens for this event (most events start nothing).
    const contact = () => this.subscribers.findById(event.companyId, event.subscriberId);
    await this.start(event.companyId, contact, {
      trigger: "event_received",
      eventName: event.name,
      properties: event.properties,
      occurredAt: event.occurredAt,
    });
    if (event.name === CONFIRMED_EVENT) await this.start(event.companyId, contact, { trigger: "contact_added" });
  };

  private async start(companyId: string, loadContact: () => Promise<Subscriber | null>, occurrence: TriggerOccurrence): Promise<number> {
    const now = this.clock.now();
    if (occurrence.trigger === "event_received" && isHistorical(occurrence.occurredAt, now)) return 0;
    const live = await this.sequences.takingEntries(companyId, occurrence.trigger);
    const matching = live.filter((sequence) => matches(sequence, occurrence));
    if (matching.length === 0) return 0;
    const contact = await loadContact();
    if (!contact || (await this.enroll.refusal(contact))) return 0;
    const context: EnrollmentContext =
      occurrence.trigger === "event_received" ? { event: { name: occurrence.eventName, properties: occurrence.properties } } : {};
    let started = 0;
    for (const sequence of matching) {
      const enrolled = await this.enroll.execute(sequence, contact, { context, source: "trigger", at: now });
      if (typeof enrolled !== "string") started += 1;
    }
    return started;
  }
}
