import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import { documentedEvent, EVENT_CATALOG, jsonTypeOf, type ProviderSchema } from "./catalog.js";
import type { CustomEvent, EventDefinition } from "./model.js";
import type { CustomEventRepository } from "./ports.js";
import type { EventSchemasView, EventSchemaView } from "./view.js";

const NOTE =
  "Documented events come from the built-in catalog; every other event is one this company has sent, described from the most recent occurrence (provider 'observed').";

/** `saas.trial_started` -> `Trial started`. */
const labelOf = (name: string): string => {
  const words = (name.split(".").pop() ?? name).replace(/[_-]+/g, " ").trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : name;
};

/**
 * What the company's own events look like: the last one's properties and their JSON types, by
 * name (Postgres jsonb does not keep the order keys were sent in).
 */
export const observedProvider = (event: CustomEvent): ProviderSchema => ({
  provider: "observed",
  examplePayload: event.properties,
  properties: Object.entries(event.properties)
    .map(([name, value]) => ({ name, type: jsonTypeOf(value) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
});

/**
 * The event catalog of a company (`GET /events/schemas`): the definitions it created by sending
 * events, most recently seen first, then the documented events it has not sent yet.
 */
export class DescribeEventSchemas {
  constructor(private readonly events: CustomEventRepository) {}

  execute = async (actor: Actor, query: { eventName?: string | undefined; provider?: string | undefined }): Promise<Result<EventSchemasView>> => {
    const definitions = await this.events.listDefinitions(actor.companyId, query.eventName ?? null);
    const schemas: EventSchemaView[] = [];
    for (const definition of definitions)
      schemas.push(this.schemaOf(definition.name, definition, await this.events.lastEvent(actor.companyId, definition.name)));
    const seen = new Set(definitions.map((definition) => definition.name));
    for (const documented of EVENT_CATALOG) {
      if (seen.has(documented.eventName) || (query.eventName !== undefined && documented.eventName !== query.eventName)) continue;
      schemas.push(this.schemaOf(documented.eventName, null, null));
    }
    const events = query.provider
      ? schemas
          .map((schema) => ({ ...schema, providers: schema.providers.filter((p) => p.provider === query.provider) }))
          .filter((schema) => schema.providers.length > 0)
      : schemas;
    return ok({ eventName: query.eventName ?? null, events, note: NOTE });
  };

  private schemaOf(name: string, definition: EventDefinition | null, last: CustomEvent | null): EventSchemaView {
    const documented = documentedEvent(name);
    return {
      eventName: name,
      documented: documented !== undefined,
      label: documented?.label ?? labelOf(name),
      category: documented?.category ?? (name.includes(".") ? name.split(".")[0]! : "custom"),
      description: documented?.description ?? "A custom event this company sends.",
      documentedProviders: documented?.providers.map((provider) => provider.provider) ?? [],
      providers: [...(documented?.providers ?? []), ...(last ? [observedProvider(last)] : [])],
      eventCount: definition?.eventCount ?? 0,
      lastSeenAt: definition?.lastSeenAt.toISOString() ?? null,
    };
  }
}
