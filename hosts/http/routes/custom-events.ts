import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { EventSampleQuery, EventSchemasQuery, ImportEventsCommand, MAX_BULK_EVENTS, MAX_IMPORTED_EVENTS, TrackEventCommand, TrackEventsCommand } from "../../../core/events/commands.js";
import { DescribeEventSchemas, type EventSchemas } from "../../../core/events/describe-event-schemas.js";
import { GetEventSample, type EventSample } from "../../../core/events/get-event-sample.js";
import { ImportEvents, type EventImportReport } from "../../../core/events/import-events.js";
import type { RecordedEvent } from "../../../core/events/record-custom-event.js";
import type { EventSubscriber } from "../../../core/events/resolve-event-contact.js";
import { TrackEvents } from "../../../core/events/track-events.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableTimestamp, Timestamp } from "../../../core/shared/view-fields.js";

const SubscriberRef = t.type({ id: Id, email: t.string, created: t.boolean });
const EventRef = t.type({ id: Id, name: t.string, definitionCreated: t.boolean });
const HistoricalEvent = t.type({ id: Id, name: t.string, occurredAt: Timestamp });
const Property = t.intersection([t.type({ name: t.string, type: t.string }), t.partial({ description: t.string })]);
const Provider = t.type({ provider: t.string, examplePayload: t.record(t.string, t.unknown), properties: t.array(Property) });

const subscriberRef = (subscriber: EventSubscriber) => ({ id: subscriber.id, email: subscriber.email, created: subscriber.created });
const eventRef = (event: RecordedEvent) => ({ id: event.id, name: event.name, definitionCreated: event.definitionCreated });
/** Optional fields appear only when they say something (the client rejects nulls). */
const sideEffects = (event: RecordedEvent) => (event.sideEffectFailures.length > 0 ? { sideEffectFailures: event.sideEffectFailures } : {});
const duplicate = (event: RecordedEvent) => (event.duplicate ? { duplicate: true as const } : {});

/** The single-event answer; history adds the batch view the client also reads (compat §5). */
function trackedEvent(subscriber: EventSubscriber, event: RecordedEvent): Record<string, unknown> {
  return {
    event: eventRef(event),
    subscriber: subscriberRef(subscriber),
    ...sideEffects(event),
    ...duplicate(event),
    ...(event.historical
      ? {
          historical: true,
          events: [{ id: event.id, name: event.name, occurredAt: event.occurredAt }],
          inserted: event.duplicate ? 0 : 1,
          duplicates: event.duplicate ? 1 : 0,
        }
      : {}),
  };
}

/** Custom events: submission (one, many for a contact, a batch for many contacts) and the event catalog. */
export const customEventsRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers/events",
    tag: "Events",
    scopes: ["events:write"],
    summary:
      "Record a custom event for a contact (created when new: email needed). occurredAt over an hour old is history: stored, triggers nothing; over 5 years old is refused. eventId makes retries safe",
    body: TrackEventCommand,
    response: t.intersection([
      t.type({ event: EventRef, subscriber: SubscriberRef }),
      t.partial({
        sideEffectFailures: t.array(t.string),
        duplicate: t.literal(true),
        historical: t.literal(true),
        events: t.array(HistoricalEvent),
        inserted: t.number,
        duplicates: t.number,
      }),
    ]),
    errors: [400, 403, 404, 409, 422],
    handle: async ({ input: { body }, actor, container }) => {
      const { event, properties, occurredAt, eventId, ...identity } = body;
      const tracked = await container.get(TrackEvents).execute(actor, identity, [{ name: event, properties, occurredAt, eventId }]);
      return map(({ subscriber, events }: { subscriber: EventSubscriber; events: RecordedEvent[] }) => trackedEvent(subscriber, events[0]!))(tracked);
    },
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers/events/bulk",
    tag: "Events",
    scopes: ["events:write"],
    summary: `Record up to ${MAX_BULK_EVENTS} events for one contact, in order; when all are over an hour old they are stored as one historical batch`,
    body: TrackEventsCommand,
    response: t.intersection([
      t.type({
        subscriber: SubscriberRef,
        events: t.array(t.intersection([EventRef, t.partial({ sideEffectFailures: t.array(t.string), duplicate: t.literal(true) })])),
      }),
      t.partial({ historical: t.literal(true) }),
    ]),
    errors: [400, 403, 404, 409, 422],
    handle: async ({ input: { body }, actor, container }) => {
      const { events, ...identity } = body;
      const tracked = await container.get(TrackEvents).execute(actor, identity, events, (index) => `events.${index}.occurredAt`);
      return map(({ subscriber, events: recorded }: { subscriber: EventSubscriber; events: RecordedEvent[] }) => ({
        subscriber: subscriberRef(subscriber),
        events: recorded.map((event) => ({ ...eventRef(event), ...sideEffects(event), ...duplicate(event) })),
        ...(recorded.every((event) => event.historical) ? { historical: true } : {}),
      }))(tracked);
    },
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers/events/imports",
    tag: "Events",
    scopes: ["events:write"],
    summary: `Record up to ${MAX_IMPORTED_EVENTS} events for many contacts (eventId required); an email creates a missing contact, an externalId alone only reaches existing ones. Each event that fails is reported, the others are recorded`,
    body: ImportEventsCommand,
    response: t.type({
      total: t.number,
      recorded: t.number,
      duplicates: t.number,
      failed: t.number,
      sideEffectFailed: t.number,
      subscribers: t.number,
      failures: t.array(t.type({ index: t.number, name: t.string, eventId: t.string, error: t.string })),
      sideEffectFailures: t.array(t.type({ index: t.number, name: t.string, eventId: t.string, eventRecordId: Id, subscriberId: Id, errors: t.array(t.string) })),
    }),
    errors: [403, 422],
    handle: async ({ input: { body }, actor, container }) => map((report: EventImportReport) => ({ ...report }))(await container.get(ImportEvents).execute(actor, body.events)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/events/schemas",
    tag: "Events",
    scopes: ["events:read"],
    summary: "The company's event definitions (with the properties of the last event sent) and the documented event catalog",
    query: EventSchemasQuery,
    response: t.type({
      eventName: t.union([t.string, t.null]),
      events: t.array(
        t.type({
          eventName: t.string,
          documented: t.boolean,
          label: t.string,
          category: t.string,
          description: t.string,
          documentedProviders: t.array(t.string),
          providers: t.array(Provider),
          eventCount: t.number,
          lastSeenAt: NullableTimestamp,
        }),
      ),
      note: t.string,
    }),
    errors: [403, 422],
    handle: async ({ input: { query }, actor, container }) => map((schemas: EventSchemas) => ({ ...schemas }))(await container.get(DescribeEventSchemas).execute(actor, query)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/events/sample",
    tag: "Events",
    scopes: ["events:read"],
    summary: "A sample payload for one event: the properties of the last one sent, else the catalog's example",
    query: EventSampleQuery,
    response: t.type({
      eventName: t.string,
      documented: t.boolean,
      source: t.keyof({ observed: null, catalog: null }),
      examplePayload: t.record(t.string, t.unknown),
      properties: t.array(Property),
      occurredAt: NullableTimestamp,
    }),
    errors: [403, 404, 422],
    handle: async ({ input: { query }, actor, container }) => map((sample: EventSample) => ({ ...sample }))(await container.get(GetEventSample).execute(actor, query.eventName)),
  }),
];
