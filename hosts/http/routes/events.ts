import { map } from "fp-ts/lib/Either.js";
import {
  EventSampleQuery,
  EventSchemasQuery,
  ImportEventsCommand,
  MAX_BULK_EVENTS,
  MAX_IMPORTED_EVENTS,
  TrackEventCommand,
  TrackEventsCommand,
} from "../../../core/events/commands.js";
import { DescribeEventSchemas } from "../../../core/events/describe-event-schemas.js";
import { GetEventSample } from "../../../core/events/get-event-sample.js";
import { ImportEvents } from "../../../core/events/import-events.js";
import { TrackEvents, type TrackedEvents } from "../../../core/events/track-events.js";
import {
  EventImportReportView,
  EventSampleView,
  EventSchemasView,
  toTrackedEventsView,
  toTrackedEventView,
  TrackedEventsView,
  TrackedEventView,
} from "../../../core/events/view.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

/** Custom events: submission (one, many for a contact, a batch for many contacts) and the event catalog. */
export const eventsRoutes = routeModule(
  { trackEvents: TrackEvents, importEvents: ImportEvents, describeEventSchemas: DescribeEventSchemas, getEventSample: GetEventSample },
  (uses) => [
    defineRoute({
      method: "post",
      path: "/subscribers/events",
      tag: "Events",
      scopes: ["events:write"],
      summary:
        "Record a custom event for a contact (created when new: email needed). occurredAt over an hour old is history: stored, triggers nothing; over 5 years old is refused. eventId makes retries safe. A contact it creates is asked to confirm when the company has double opt-in on (optIn, warnings)",
      body: TrackEventCommand,
      response: TrackedEventView,
      errors: [400, 403, 404, 409, 422],
      handle: async ({ input: { body }, actor }) => {
        const { event, properties, occurredAt, eventId, ...identity } = body;
        const tracked = await uses.trackEvents.execute(actor, identity, [{ name: event, properties, occurredAt, eventId }]);
        return map(({ subscriber, events }: TrackedEvents) => toTrackedEventView(subscriber, events[0]!))(tracked);
      },
    }),
    defineRoute({
      method: "post",
      path: "/subscribers/events/bulk",
      tag: "Events",
      scopes: ["events:write"],
      summary: `Record up to ${MAX_BULK_EVENTS} events for one contact, in order; when all are over an hour old they are stored as one historical batch. A contact it creates is asked to confirm when the company has double opt-in on (optIn, warnings)`,
      body: TrackEventsCommand,
      response: TrackedEventsView,
      errors: [400, 403, 404, 409, 422],
      handle: async ({ input: { body }, actor }) => {
        const { events, ...identity } = body;
        const tracked = await uses.trackEvents.execute(actor, identity, events, (index) => `events.${index}.occurredAt`);
        return map(({ subscriber, events: recorded }: TrackedEvents) => toTrackedEventsView(subscriber, recorded))(tracked);
      },
    }),
    defineRoute({
      method: "post",
      path: "/subscribers/events/imports",
      tag: "Events",
      scopes: ["events:write"],
      summary: `Record up to ${MAX_IMPORTED_EVENTS} events for many contacts (eventId required); an email creates a missing contact, an externalId alone only reaches existing ones. Each event that fails is reported, the others are recorded`,
      body: ImportEventsCommand,
      response: EventImportReportView,
      errors: [403, 422],
      handle: async ({ input: { body }, actor }) => uses.importEvents.execute(actor, body.events),
    }),
    defineRoute({
      method: "get",
      path: "/events/schemas",
      tag: "Events",
      scopes: ["events:read"],
      summary: "The company's event definitions (with the properties of the last event sent) and the documented event catalog",
      query: EventSchemasQuery,
      response: EventSchemasView,
      errors: [403, 422],
      handle: async ({ input: { query }, actor }) => uses.describeEventSchemas.execute(actor, query),
    }),
    defineRoute({
      method: "get",
      path: "/events/sample",
      tag: "Events",
      scopes: ["events:read"],
      summary: "A sample payload for one event: the properties of the last one sent, else the catalog's example",
      query: EventSampleQuery,
      response: EventSampleView,
      errors: [403, 404, 422],
      handle: async ({ input: { query }, actor }) => uses.getEventSample.execute(actor, query.eventName),
    }),
  ],
);
