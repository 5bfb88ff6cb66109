import * as t from "io-ts";
import { boundedArray } from "../shared/bounded-array.js";
import { boundedText, Email, integerBetween, IsoDate, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { EventName, EventProperties } from "../events/commands.js";
import type { BrowserCommand } from "./install-snippet.js";

/**
 * Inputs of the web tracking routes (spec, Web tracking keys; compat-reference §20) and of the
 * public event endpoint. Types are checked here (422); origins, which must all be valid for
 * anything to be saved, are checked by the use cases (400).
 */

/** Strings only; whether each is an origin is the use case's (one bad entry refuses the request). */
const Origins = t.array(t.string);

/** POST /web-tracking-keys. */
export const CreateWebTrackingKeyCommand = t.exact(
  t.intersection([t.type({ name: required(boundedText(255)) }), t.partial({ allowedOrigins: optional(t.union([Origins, t.null])) })]),
  "CreateWebTrackingKeyCommand",
);
export type CreateWebTrackingKeyCommand = t.TypeOf<typeof CreateWebTrackingKeyCommand>;

/** PATCH /web-tracking-keys/{id}: at least one field; `allowedOrigins: []` (or null) makes the key unrestricted. */
export const UpdateWebTrackingKeyCommand = t.exact(
  t.partial({ name: optional(boundedText(255)), allowedOrigins: optional(t.union([Origins, t.null])), isActive: optional(t.boolean) }),
  "UpdateWebTrackingKeyCommand",
);
export type UpdateWebTrackingKeyCommand = t.TypeOf<typeof UpdateWebTrackingKeyCommand>;

export const WebTrackingKeyPath = t.type({ keyId: TrimmedNonEmpty }, "WebTrackingKeyPath");

/** Identity tokens last a day unless asked otherwise, and at most 30 days. */
export const DEFAULT_IDENTITY_TTL_HOURS = 24;
export const MAX_IDENTITY_TTL_HOURS = 720;

/** POST /web-tracking-identities: the key is named by publicKey or keyId. */
export const MintWebIdentityCommand = t.exact(
  t.intersection([
    t.type({ email: required(Email) }),
    t.partial({
      publicKey: optional(boundedText(100)),
      keyId: optional(boundedText(100)),
      ttlHours: optional(integerBetween(1, MAX_IDENTITY_TTL_HOURS)),
    }),
  ]),
  "MintWebIdentityCommand",
);
export type MintWebIdentityCommand = t.TypeOf<typeof MintWebIdentityCommand>;

/** Events one request of the tracking script may carry. */
export const MAX_WEB_EVENTS_PER_BATCH = 50;

/** The commands that record an event (identify and reset only change the script's state). */
export const EVENT_COMMANDS = [
  "track",
  "page",
  "viewedProduct",
  "addedToCart",
  "removedFromCart",
  "viewedCart",
  "viewedCollection",
  "searched",
] as const satisfies readonly BrowserCommand[];
export type EventCommand = (typeof EVENT_COMMANDS)[number];

/** One event as the tracking script sends it; `id` is the script's, so a retried batch is recorded once. */
export const WebEvent = t.exact(
  t.intersection([
    t.type({ id: required(boundedText(100)), type: required(oneOf(EVENT_COMMANDS, "WebEventType")) }),
    t.partial({ name: optional(EventName), properties: optional(EventProperties), occurredAt: optional(IsoDate) }),
  ]),
  "WebEvent",
);
export type WebEvent = t.TypeOf<typeof WebEvent>;

/** A batch of the tracking script: the identity the backend minted, the visitor, the events. */
export const WebEventBatch = t.exact(
  t.intersection([
    t.type({ events: required(boundedArray(WebEvent, 1, MAX_WEB_EVENTS_PER_BATCH)) }),
    t.partial({
      publicKey: optional(boundedText(100)),
      anonymousId: optional(boundedText(100)),
      identity: optional(t.union([t.exact(t.type({ email: required(Email), token: required(boundedText(2_000)) })), t.null])),
    }),
  ]),
  "WebEventBatch",
);
export type WebEventBatch = t.TypeOf<typeof WebEventBatch>;
