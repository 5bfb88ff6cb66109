import type { ContactEvent } from "../events/contact-events.js";
import { isHistorical } from "../events/model.js";
import type { AutomationOccurrence } from "../ports/automations.js";
import type { Clock } from "../ports/clock.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { EnrollContact } from "./enroll-contact.js";
import type { EnrollmentContext } from "./enrollment.js";
import type { Sequence } from "./model.js";
import type { SequenceRepository } from "./ports.js";
import type { TriggerStore } from "./trigger-ports.js";
import { matches, triggersOf } from "./trigger-matching.js";

/** The event a contact's confirmation records (core/opt-in): a confirmed contact is a new contact to sequences. */
export const CONFIRMED_EVENT = "subscriber.confirmed";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The one entry point of triggers (the Automations port): whatever creates contacts, tags them,
 * puts them on lists or records their events tells it what happened, and every live sequence
 * taking new entries whose trigger matches enrolls the contacts. Events over an hour old are
 * history and start nothing; contacts not active, or unconfirmed under double opt-in, are not
 * enrolled (their confirmation starts the contact_added sequences then). A `frequency` trigger
 * enrolls a contact whose count of the event within `timeWindowDays` has reached `minCount`, at
 * most once per window.
 */
export class StartSequences {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly enroll: EnrollContact,
    private readonly store: TriggerStore,
    private readonly clock: Clock,
  ) {}

  /** Resolves to the IDs of the sequences each contact entered, by contact ID. */
  trigger = (companyId: string, subscriberIds: readonly string[], occurrence: AutomationOccurrence): Promise<Map<string, string[]>> =>
    this.start(companyId, [...new Set(subscriberIds)], occurrence);

  /** The listener of recorded custom events (ContactEvents): resolves to the IDs of the sequences the contact entered. */
  onEvent = async (event: ContactEvent): Promise<string[]> => {
    if (event.historical) return [];
    const started = await this.start(event.companyId, [event.subscriberId], {
      trigger: "event_received",
      eventName: event.name,
      properties: event.properties,
      occurredAt: event.occurredAt,
    });
    // A confirmed contact is new to sequences then, with the lists it joined.
    const confirmed =
      event.name === CONFIRMED_EVENT
        ? await this.start(event.companyId, [event.subscriberId], {
            trigger: "contact_added",
            created: true,
            listIds: await this.store.listIdsOf(event.companyId, event.subscriberId),
          })
        : null;
    return [...(started.get(event.subscriberId) ?? []), ...(confirmed?.get(event.subscriberId) ?? [])];
  };

  private async start(companyId: string, subscriberIds: readonly string[], occurrence: AutomationOccurrence): Promise<Map<string, string[]>> {
    const started = new Map<string, string[]>();
    const now = this.clock.now();
    if (occurrence.trigger === "event_received" && isHistorical(occurrence.occurredAt, now)) return started;
    const live = await this.sequences.takingEntries(companyId, triggersOf(occurrence));
    const matching = live.filter((sequence) => matches(sequence, occurrence));
    // Most occurrences start nothing: the contacts are read only when a live sequence listens.
    if (matching.length === 0) return started;
    const context: EnrollmentContext =
      occurrence.trigger === "event_received" ? { event: { name: occurrence.eventName, properties: occurrence.properties } } : {};
    for (const subscriberId of subscriberIds) {
      const contact = await this.subscribers.findById(companyId, subscriberId);
      if (!contact || (await this.enroll.refusal(contact))) continue;
      const entered: string[] = [];
      for (const sequence of matching) {
        if (sequence.trigger === "frequency" && !(await this.frequencyReached(sequence, subscriberId, now))) continue;
        const enrolled = await this.enroll.execute(sequence, contact, { context, source: "trigger", at: now });
        if (typeof enrolled !== "string") entered.push(sequence.id);
      }
      if (entered.length > 0) started.set(subscriberId, entered);
    }
    return started;
  }

  /** The contact did the event `minCount` times within the window, and has not entered within it. */
  private async frequencyReached(sequence: Sequence, subscriberId: string, now: Date): Promise<boolean> {
    const { eventName, minCount, timeWindowDays } = sequence.triggerConfig as { eventName: string; minCount: number; timeWindowDays: number };
    const since = new Date(now.getTime() - timeWindowDays * DAY_MS);
    if (await this.store.enteredSince(sequence.companyId, sequence.id, subscriberId, since)) return false;
    return (await this.store.countEvents(sequence.companyId, subscriberId, eventName, since)) >= minCount;
  }
}
