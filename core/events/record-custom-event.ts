import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { ContactEvents, PublishOutcome } from "./contact-events.js";
import { isHistorical, type CustomEvent, type CustomEventSource } from "./model.js";
import type { CustomEventRepository } from "./ports.js";

/** The contact an event is recorded for (already created or matched by the caller). */
export interface EventContact {
  readonly companyId: string;
  readonly id: string;
  readonly email: string;
}

export interface CustomEventInput {
  readonly name: string;
  readonly properties: Record<string, unknown>;
  readonly occurredAt: Date;
  readonly eventId: string | null;
  readonly source: CustomEventSource;
}

export interface RecordedEvent {
  readonly id: string;
  readonly name: string;
  readonly occurredAt: Date;
  /** This event made the company's first definition of its name. */
  readonly definitionCreated: boolean;
  /** The eventId was already recorded: the original event is returned and nothing happened. */
  readonly duplicate: boolean;
  /** Over an hour old: stored, but not published. */
  readonly historical: boolean;
  /** Messages of the ContactEvents listeners that failed. */
  readonly sideEffectFailures: string[];
  /** IDs of the automations (sequences) the event started. */
  readonly automationsTriggered: string[];
}

const eventKey = (name: string, eventId: string | null): string => JSON.stringify([name, eventId]);

const fromOriginal = (original: CustomEvent): RecordedEvent => ({
  id: original.id,
  name: original.name,
  occurredAt: original.occurredAt,
  definitionCreated: false,
  duplicate: true,
  historical: original.historical,
  sideEffectFailures: [],
  automationsTriggered: [],
});

/**
 * Records a custom event: stores the `custom_events` row, counts the event definition (created
 * on first sight) and publishes it on ContactEvents unless it is history or a repeated eventId.
 * A repeated eventId (even sent concurrently) yields the original row: the unique index decides.
 * Each event is judged on its own: in a mixed batch the live ones are published, the old not.
 */
export class RecordCustomEvent {
  constructor(
    private readonly events: CustomEventRepository,
    private readonly contactEvents: ContactEvents,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (contact: EventContact, input: CustomEventInput): Promise<RecordedEvent> => {
    const [recorded] = await this.recordAll(contact, [input]);
    return recorded!;
  };

  /**
   * Records a contact's events in order, stored in one write. History (over an hour old) and
   * repeated eventIds publish nothing; the others are published in order once all are stored.
   */
  executeMany = (contact: EventContact, inputs: readonly CustomEventInput[]): Promise<RecordedEvent[]> => this.recordAll(contact, inputs);

  private async recordAll(contact: EventContact, inputs: readonly CustomEventInput[]): Promise<RecordedEvent[]> {
    const now = this.clock.now();
    const events = inputs.map((input) => this.toEvent(contact, input, now));
    const outcomes = await this.events.store(events);
    const originals = await this.originals(
      contact,
      events.filter((_, index) => !outcomes[index]!.stored),
    );
    const recorded: RecordedEvent[] = [];
    for (const [index, event] of events.entries()) {
      const outcome = outcomes[index]!;
      if (!outcome.stored) {
        const original = originals.get(eventKey(event.name, event.eventId));
        if (!original) throw new Error(`custom event ${event.id} was refused but no event with its eventId exists`);
        recorded.push(fromOriginal(original));
        continue;
      }
      const { failures: sideEffectFailures, automationsTriggered } = event.historical
        ? { failures: [], automationsTriggered: [] }
        : await this.publish(contact, event);
      recorded.push({
        id: event.id,
        name: event.name,
        occurredAt: event.occurredAt,
        definitionCreated: outcome.definitionCreated,
        duplicate: false,
        historical: event.historical,
        sideEffectFailures,
        automationsTriggered,
      });
    }
    return recorded;
  }

  private toEvent(contact: EventContact, input: CustomEventInput, now: Date): CustomEvent {
    return {
      id: this.ids.next("evt"),
      companyId: contact.companyId,
      subscriberId: contact.id,
      name: input.name,
      properties: input.properties,
      occurredAt: input.occurredAt,
      receivedAt: now,
      eventId: input.eventId,
      historical: isHistorical(input.occurredAt, now),
      source: input.source,
    };
  }

  /** The stored events the refused ones collided with (only an eventId can collide), by name and eventId. */
  private async originals(contact: EventContact, refused: readonly CustomEvent[]): Promise<Map<string, CustomEvent>> {
    const eventIds = [...new Set(refused.flatMap((event) => (event.eventId ? [event.eventId] : [])))];
    if (eventIds.length === 0) return new Map();
    const stored = await this.events.findByEventIds(contact.companyId, contact.id, eventIds);
    return new Map(stored.map((event) => [eventKey(event.name, event.eventId), event]));
  }

  private publish(contact: EventContact, event: CustomEvent): Promise<PublishOutcome> {
    return this.contactEvents.publish({
      companyId: contact.companyId,
      subscriberId: contact.id,
      email: contact.email,
      name: event.name,
      properties: event.properties,
      occurredAt: event.occurredAt,
      customEventId: event.id,
      historical: false,
      source: event.source,
    });
  }
}
