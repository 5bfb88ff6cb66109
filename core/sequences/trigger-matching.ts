import type { AutomationOccurrence } from "../ports/automations.js";
import { normalizeTagName } from "../tags/model.js";
import type { Sequence } from "./model.js";
import { passesFilters, type PropertyFilter } from "./property-filters.js";

/** The sequence triggers an occurrence may start: an event also counts toward `frequency` triggers. */
export function triggersOf(occurrence: AutomationOccurrence): readonly string[] {
  return occurrence.trigger === "event_received" ? ["event_received", "frequency"] : [occurrence.trigger];
}

/**
 * Whether the occurrence fits the sequence's trigger config. `contact_added` with a `listId`
 * takes contacts joining that list, with `listScope: any_list` contacts joining any list, and
 * with `any_contact` (the default) new contacts. A `frequency` trigger also needs the contact's
 * count of the event, checked by the caller.
 */
export function matches(sequence: Sequence, occurrence: AutomationOccurrence): boolean {
  const config = sequence.triggerConfig;
  switch (occurrence.trigger) {
    case "contact_added":
      if (sequence.trigger !== "contact_added") return false;
      if (typeof config.listId === "string") return occurrence.listIds.includes(config.listId);
      return config.listScope === "any_list" ? occurrence.listIds.length > 0 : occurrence.created;
    case "tag_added":
      return sequence.trigger === "tag_added" && typeof config.tagName === "string" && occurrence.tagNames.includes(normalizeTagName(config.tagName));
    case "event_received": {
      if (sequence.trigger !== "event_received" && sequence.trigger !== "frequency") return false;
      const filters = (config.propertyFilters as PropertyFilter[] | undefined) ?? [];
      return config.eventName === occurrence.eventName && passesFilters(occurrence.properties, filters);
    }
  }
}
