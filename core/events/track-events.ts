import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { occurredAtProblem } from "./model.js";
import type { CustomEventInput, RecordCustomEvent, RecordedEvent } from "./record-custom-event.js";
import type { EventIdentity, EventSubscriber, ResolveEventContact } from "./resolve-event-contact.js";

/** One event as the API receives it; occurredAt defaults to now. */
export interface EventOccurrence {
  readonly name: string;
  readonly properties?: Record<string, unknown> | undefined;
  readonly occurredAt?: Date | undefined;
  readonly eventId?: string | null | undefined;
}

export interface TrackedEvents {
  readonly subscriber: EventSubscriber;
  /** In the order given. */
  readonly events: RecordedEvent[];
}

/**
 * Records one contact's events sent through the API (`POST /subscribers/events` and `/bulk`):
 * checks every occurrence time first (nothing is written when one is too old), finds or
 * creates the contact, then records the events in order.
 */
export class TrackEvents {
  constructor(
    private readonly resolveContact: ResolveEventContact,
    private readonly record: RecordCustomEvent,
    private readonly clock: Clock,
  ) {}

  execute = async (
    actor: Actor,
    identity: EventIdentity,
    occurrences: readonly EventOccurrence[],
    pathOf: (index: number) => string = () => "occurredAt",
  ): Promise<Result<TrackedEvents>> => {
    const now = this.clock.now();
    const inputs: CustomEventInput[] = [];
    for (const [index, occurrence] of occurrences.entries()) {
      const occurredAt = occurrence.occurredAt ?? now;
      const problem = occurredAtProblem(occurredAt, now, pathOf(index));
      if (problem) return fail(badRequest(problem));
      inputs.push({ name: occurrence.name, properties: occurrence.properties ?? {}, occurredAt, eventId: occurrence.eventId ?? null, source: "api" });
    }
    const subscriber = await this.resolveContact.execute(actor.companyId, identity);
    if (subscriber._tag === "Left") return subscriber;
    const events = await this.record.executeMany(subscriber.right, inputs);
    return ok({ subscriber: subscriber.right, events });
  };
}
