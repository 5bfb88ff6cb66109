import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view, viewWithOptional } from "../shared/view-fields.js";
import type { RecordedEvent } from "./record-custom-event.js";
import type { EventSubscriber } from "./resolve-event-contact.js";

/** The answers of the events API (compat-reference §5) and of its catalog. */

const SubscriberRef = view({ id: Id, email: t.string, created: t.boolean }, "EventSubscriber");
const eventRefFields = { id: Id, name: t.string, definitionCreated: t.boolean };
const EventRef = view(eventRefFields, "EventRef");
const HistoricalEvent = view({ id: Id, name: t.string, occurredAt: Timestamp }, "HistoricalEvent");

/** Present when the event created its contact and the company has double opt-in on (as on POST /subscribers). */
const optInFields = {
  optIn: view({ required: t.boolean, emailQueued: t.boolean }, "EventOptIn"),
  /** Why a confirmation email due was not queued. */
  warnings: t.readonlyArray(t.string),
};
const optInOf = ({ optIn }: EventSubscriber) => {
  if (!optIn) return {};
  const { warning, ...answer } = optIn;
  return { optIn: answer, ...(warning ? { warnings: [warning] } : {}) };
};

/** One event recorded for one contact; a historical one adds the batch fields the client also reads. */
export const TrackedEventView = viewWithOptional(
  { event: EventRef, subscriber: SubscriberRef },
  {
    sideEffectFailures: t.readonlyArray(t.string),
    duplicate: t.literal(true),
    historical: t.literal(true),
    events: t.readonlyArray(HistoricalEvent),
    inserted: t.number,
    duplicates: t.number,
    ...optInFields,
  },
  "TrackedEvent",
);
export type TrackedEventView = t.TypeOf<typeof TrackedEventView>;

const TrackedEventEntry = viewWithOptional(eventRefFields, { sideEffectFailures: t.readonlyArray(t.string), duplicate: t.literal(true) }, "TrackedEventEntry");

/** Several events recorded for one contact, in order. */
export const TrackedEventsView = viewWithOptional(
  { subscriber: SubscriberRef, events: t.readonlyArray(TrackedEventEntry) },
  { historical: t.literal(true), ...optInFields },
  "TrackedEvents",
);
export type TrackedEventsView = t.TypeOf<typeof TrackedEventsView>;

const subscriberRef = (subscriber: EventSubscriber) => ({ id: subscriber.id, email: subscriber.email, created: subscriber.created });
const eventRef = (event: RecordedEvent) => ({ id: event.id, name: event.name, definitionCreated: event.definitionCreated });
/** Optional fields appear only when they say something (the client rejects nulls). */
const sideEffects = (event: RecordedEvent) => (event.sideEffectFailures.length > 0 ? { sideEffectFailures: event.sideEffectFailures } : {});
const duplicate = (event: RecordedEvent) => (event.duplicate ? { duplicate: true as const } : {});

export const toTrackedEventView = (subscriber: EventSubscriber, event: RecordedEvent): TrackedEventView => ({
  event: eventRef(event),
  subscriber: subscriberRef(subscriber),
  ...optInOf(subscriber),
  ...sideEffects(event),
  ...duplicate(event),
  ...(event.historical
    ? {
        historical: true as const,
        events: [{ id: event.id, name: event.name, occurredAt: event.occurredAt.toISOString() }],
        inserted: event.duplicate ? 0 : 1,
        duplicates: event.duplicate ? 1 : 0,
      }
    : {}),
});

export const toTrackedEventsView = (subscriber: EventSubscriber, events: readonly RecordedEvent[]): TrackedEventsView => ({
  subscriber: subscriberRef(subscriber),
  events: events.map((event) => ({ ...eventRef(event), ...sideEffects(event), ...duplicate(event) })),
  ...optInOf(subscriber),
  ...(events.every((event) => event.historical) ? { historical: true as const } : {}),
});

/** An imported event that was not recorded, with the identity it was given for. */
export const EventImportFailure = viewWithOptional(
  { index: t.number, name: t.string, eventId: t.string, error: t.string },
  { email: t.string, externalId: t.string },
  "EventImportFailure",
);
export type EventImportFailure = t.TypeOf<typeof EventImportFailure>;

/** A recorded event whose ContactEvents listeners failed. */
export const EventSideEffectFailure = view(
  { index: t.number, name: t.string, eventId: t.string, eventRecordId: Id, subscriberId: Id, errors: t.readonlyArray(t.string) },
  "EventSideEffectFailure",
);
export type EventSideEffectFailure = t.TypeOf<typeof EventSideEffectFailure>;

/** The answer to a batch import of events for many contacts: each failure names its event, and the identity given for it. */
export const EventImportReportView = view(
  {
    total: t.number,
    /** Newly stored events (history included). */
    recorded: t.number,
    /** Events whose eventId was already recorded. */
    duplicates: t.number,
    failed: t.number,
    sideEffectFailed: t.number,
    /** Distinct contacts the recorded and duplicate events belong to. */
    subscribers: t.number,
    failures: t.readonlyArray(EventImportFailure),
    sideEffectFailures: t.readonlyArray(EventSideEffectFailure),
  },
  "EventImportReport",
);
export type EventImportReportView = t.TypeOf<typeof EventImportReportView>;

const PropertyView = viewWithOptional({ name: t.string, type: t.string }, { description: t.string }, "EventProperty");
const ProviderView = view({ provider: t.string, examplePayload: t.record(t.string, t.unknown), properties: t.readonlyArray(PropertyView) }, "EventProvider");

/** One event name of the company's catalog: documented, sent by the company, or both. */
export const EventSchemaView = view(
  {
    eventName: t.string,
    documented: t.boolean,
    label: t.string,
    category: t.string,
    description: t.string,
    documentedProviders: t.readonlyArray(t.string),
    providers: t.readonlyArray(ProviderView),
    /** Events of this name the company has sent (0 for documented events never sent). */
    eventCount: t.number,
    lastSeenAt: NullableTimestamp,
  },
  "EventSchema",
);
export type EventSchemaView = t.TypeOf<typeof EventSchemaView>;

export const EventSchemasView = view({ eventName: NullableString, events: t.readonlyArray(EventSchemaView), note: t.string }, "EventSchemas");
export type EventSchemasView = t.TypeOf<typeof EventSchemasView>;

/** A sample payload for one event name. */
export const EventSampleView = view(
  {
    eventName: t.string,
    documented: t.boolean,
    /** `observed`: the company's most recent event of the name; `catalog`: the documented example. */
    source: oneOf(["observed", "catalog"], "EventSampleSource"),
    examplePayload: t.record(t.string, t.unknown),
    properties: t.readonlyArray(PropertyView),
    /** When the observed event happened; null for a catalog example. */
    occurredAt: NullableTimestamp,
  },
  "EventSample",
);
export type EventSampleView = t.TypeOf<typeof EventSampleView>;
