import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { documentedEvent } from "./catalog.js";
import { observedProvider } from "./describe-event-schemas.js";
import type { CustomEventRepository } from "./ports.js";
import type { EventSampleView } from "./view.js";

/** A sample payload for one event name (`GET /events/sample`): what was last sent, else the catalog's example. */
export class GetEventSample {
  constructor(private readonly events: CustomEventRepository) {}

  execute = async (actor: Actor, eventName: string): Promise<Result<EventSampleView>> => {
    const documented = documentedEvent(eventName);
    const last = await this.events.lastEvent(actor.companyId, eventName);
    if (last) {
      const observed = observedProvider(last);
      return ok({
        eventName,
        documented: documented !== undefined,
        source: "observed",
        examplePayload: observed.examplePayload,
        properties: observed.properties,
        occurredAt: last.occurredAt.toISOString(),
      });
    }
    const example = documented?.providers[0];
    if (!example) return fail(notFound("Event not found"));
    return ok({ eventName, documented: true, source: "catalog", examplePayload: example.examplePayload, properties: example.properties, occurredAt: null });
  };
}
