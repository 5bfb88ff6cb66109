import * as t from "io-ts";
import { boundedText, Email, IsoDate, optional, TrimmedNonEmpty, required } from "../shared/codecs.js";
import { toJsonSchema, withSchema } from "../shared/json-schema.js";

/**
 * Inputs of the custom-event routes (compat-reference §5). Type errors are 422 here; rules that
 * need the clock or the database (occurredAt within 5 years, a known contact) are 400/404 later.
 */

/** An array of `min`..`max` items, with a readable message when the count is off. */
export const boundedArray = <C extends t.Mixed>(item: C, min: number, max: number) => {
  const array = t.array(item);
  return withSchema(
    new t.Type<Array<t.TypeOf<C>>, unknown, unknown>(
      `Array(${min}..${max})`,
      (u): u is Array<t.TypeOf<C>> => array.is(u) && u.length >= min && u.length <= max,
      (u, c) => {
        if (Array.isArray(u) && u.length < min) return t.failure(u, c, `must contain at least ${min} item${min === 1 ? "" : "s"}`);
        if (Array.isArray(u) && u.length > max) return t.failure(u, c, `must contain at most ${max} items`);
        return array.validate(u, c);
      },
      t.identity,
    ),
    { type: "array", items: toJsonSchema(item), minItems: min, maxItems: max },
  );
};

/** A JSON object (not an array, not null). */
export const JsonObject = t.record(t.string, t.unknown);

export const EventName = required(boundedText(200));
export const EventIdKey = required(boundedText(255));

/** Who the events are for, and what to know about them when they are new. */
const Identity = {
  email: optional(Email),
  externalId: optional(boundedText(255)),
  firstName: optional(t.union([t.string, t.null])),
  lastName: optional(t.union([t.string, t.null])),
  customAttributes: optional(JsonObject),
};

const Occurrence = {
  properties: optional(JsonObject),
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
    properties: optional(JsonObject),
    occurredAt: optional(IsoDate),
  }),
);
export type ImportedEvent = t.TypeOf<typeof ImportedEvent>;
export const ImportEventsCommand = t.exact(t.type({ events: boundedArray(ImportedEvent, 1, MAX_IMPORTED_EVENTS) }));
export type ImportEventsCommand = t.TypeOf<typeof ImportEventsCommand>;

export const EventSchemasQuery = t.exact(t.type({ eventName: optional(TrimmedNonEmpty), provider: optional(TrimmedNonEmpty) }));
export type EventSchemasQuery = t.TypeOf<typeof EventSchemasQuery>;

export const EventSampleQuery = t.exact(t.type({ eventName: TrimmedNonEmpty }));
