import type { ContactEvent, ContactEventListener } from "../events/contact-events.js";
import { token } from "../shared/token.js";
import { CONFIRMED_EVENT } from "./start-sequences.js";
import { triggersOf } from "./trigger-matching.js";

/** What one of a contact's events could do to sequences. */
export interface EventInterest {
  /** A live sequence taking entries listens to events (`event_received`, `frequency`). */
  readonly startsSequences: boolean;
  /** The contact has enrollments waiting (`logic_wait_for_event`). */
  readonly wakesEnrollments: boolean;
  /** An active goal waits for this event's name. */
  readonly reachesGoals: boolean;
}

export interface EventInterestRepository {
  /** Answers the three questions in one statement: most events concern no sequence, and then cost one read. */
  of(companyId: string, subscriberId: string, eventName: string, triggers: readonly string[]): Promise<EventInterest>;
}
export const EventInterestRepository = token<EventInterestRepository>("lifecycle.EventInterestRepository");

/** The event listeners of the sequence engine, each run only when the event concerns it. */
export interface SequenceEventHandlers {
  /** Starts the sequences the event triggers. */
  readonly start: (event: ContactEvent) => Promise<readonly string[]>;
  /** Ends the waits for it. */
  readonly wake: (event: ContactEvent) => Promise<unknown>;
  /** Credits the goals waiting for it. */
  readonly convert: (event: ContactEvent) => Promise<unknown>;
}

/**
 * The ContactEvents listeners of sequences: the event's interest is read once (shared by the
 * three listeners of one event), and each listener runs only when it has something to do. Each
 * stays a listener of its own, so one failing does not hide what the others did.
 */
export function sequenceEventListeners(interests: EventInterestRepository, handlers: SequenceEventHandlers): ContactEventListener[] {
  const read = new WeakMap<ContactEvent, Promise<EventInterest>>();
  const interestOf = (event: ContactEvent): Promise<EventInterest> => {
    let interest = read.get(event);
    if (!interest) {
      const triggers = triggersOf({ trigger: "event_received", eventName: event.name, properties: event.properties, occurredAt: event.occurredAt });
      interest = interests.of(event.companyId, event.subscriberId, event.name, triggers);
      read.set(event, interest);
    }
    return interest;
  };
  return [
    async (event) => {
      if (event.historical) return [];
      // A confirmation also starts `contact_added` sequences, which the interest does not ask about.
      if (event.name !== CONFIRMED_EVENT && !(await interestOf(event)).startsSequences) return [];
      return handlers.start(event);
    },
    async (event) => {
      if (!event.historical && (await interestOf(event)).wakesEnrollments) await handlers.wake(event);
    },
    async (event) => {
      if (!event.historical && (await interestOf(event)).reachesGoals) await handlers.convert(event);
    },
  ];
}
