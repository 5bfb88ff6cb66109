import type { IntegrationSettings, MappedRecord } from "../model.js";
import { activities, skipped } from "../model.js";
import { date, email, obj, str, type Json, type ProviderMapping } from "./payload.js";

/** Properties kept per event: PostHog events carry many automatic ones. */
const MAX_PROPERTIES = 50;

/** Whether the connection's settings let the event through: internal ($) events only when allow-listed. */
export function admitsEvent(settings: IntegrationSettings, name: string): boolean {
  const allowlist = settings.eventAllowlist ?? [];
  if (allowlist.includes(name)) return true;
  if (settings.syncAllEvents === false) return false;
  return !name.startsWith("$");
}

/** One PostHog event (the webhook destination's `event`, or a row of the history import) for the person's email. */
export function posthogEvent(event: Json, person: Json, settings: IntegrationSettings, fallback: Date): MappedRecord {
  const name = str(event.event);
  const uuid = str(event.uuid);
  if (!name || !uuid) return skipped("the event has no name or uuid");
  if (!admitsEvent(settings, name)) return skipped(`${name} is not synced by the connection's settings`);
  const properties = obj(event.properties) ?? {};
  const personProperties = obj(person.properties) ?? {};
  const address = email(personProperties.email) ?? email(obj(properties.$set)?.email) ?? email(properties.email);
  if (!address) return skipped("the person has no email");
  const kept = Object.entries(properties)
    .filter(([key]) => !key.startsWith("$"))
    .slice(0, MAX_PROPERTIES);
  const distinctId = str(event.distinct_id);
  return activities({
    email: address,
    attributes: distinctId ? { posthogDistinctId: distinctId } : {},
    events: [
      {
        name,
        properties: { ...Object.fromEntries(kept), ...(str(properties.$current_url) ? { url: str(properties.$current_url) } : {}), provider: "posthog" },
        occurredAt: date(event.timestamp, fallback),
        eventId: `posthog:${uuid}`,
      },
    ],
  });
}

/** PostHog's HTTP webhook destination, with its default body `{event, person}`. */
export const posthogMapping: ProviderMapping = {
  identify: (body) => {
    const event = obj(body.event);
    const eventId = str(event?.uuid);
    const eventType = str(event?.event);
    return eventId && eventType ? { eventId, eventType } : null;
  },
  map: (body, { settings, receivedAt }) => posthogEvent(obj(body.event) ?? {}, obj(body.person) ?? {}, settings, receivedAt),
};
