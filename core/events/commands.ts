import * as t from "io-ts";
import { boundedText, Email, IsoDate, optional, TrimmedNonEmpty, required } from "../shared/codecs.js";
import { boundedJsonObject, PROPERTY_LIMITS } from "../shared/bounded-json.js";
import { boundedArray } from "../shared/bounded-array.js";
import { CustomAttributes } from "../subscribers/commands.js";

/**
 * Inputs of the custom-event routes (compat-reference §5). Type errors are 422 here; rules that
 * need the clock or the database (occurredAt within 5 years, a known contact) are 400/404 later.
 */

/** Event properties: a JSON object within PROPERTY_LIMITS. */
export const EventProperties = boundedJsonObject(PROPERTY_LIMITS, "EventProperties");

export const EventName = required(boundedText(200));
export const EventIdKey = required(boundedText(255));

/** Who the events are for, and what to know about them when they are new. */
const Identity = {
  email: optional(Email),
  externalId: optional(boundedText(255)),
  firstName: optional(t.union([t.string, t.null])),
  lastName: optional(t.union([t.string, t.null])),
  customAttributes: optional(CustomAttributes),
};

const Occurrence = {
  properties: optional(EventProperties),
  occurredAt: optional(IsoDate),
  eventId: optional(t.union([EventIdKey, t.null])),
};

export const TrackEventCommand = t.exact(t.type({ event: EventName, ...Identity, ...Occurrence }));
export type TrackEventCommand = t.TypeOf<typeof TrackEventCommand>;

export const MAX_BULK_EVENTS = 500;
export const BulkEventItem = t.exact(t.type({ name: EventName, ...Occurrence }));
export const TrackEventsCommand = t.exact(t.type({ ...Identity, events: boundedArray(BulkEventItem, 1, MAX_BULK_EVENTS) }));
export type TrackEventsCommand = t.TypeOf<typeof TrackEventsCommand>;

export const MAX_IMPORTED_EVENTS = 25;
export const ImportedEvent = t.exact(
  t.type({
    email: optional(Email),
    externalId: optional(boundedText(255)),
    name: EventName,
    eventId: EventIdKey,
    properties: optional(EventProperties),
    occurredAt: optional(IsoDate),
  }),
);
export type ImportedEvent = t.TypeOf<typeof ImportedEvent>;
export const ImportEventsCommand = t.exact(t.type({ events: boundedArray(ImportedEvent, 1, MAX_IMPORTED_EVENTS) }));
export type ImportEventsCommand = t.TypeOf<typeof ImportEventsCommand>;

export const EventSchemasQuery = t.exact(t.type({ eventName: optional(TrimmedNonEmpty), provider: optional(TrimmedNonEmpty) }));
export type EventSchemasQuery = t.TypeOf<typeof EventSchemasQuery>;

export const EventSampleQuery = t.exact(t.type({ eventName: TrimmedNonEmpty }));
