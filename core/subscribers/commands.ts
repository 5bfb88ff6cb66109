import * as t from "io-ts";
import { BooleanFromString, boundedText, Email, IntegerFromString, integerBetween, IsoDate, oneOf, optional, TrimmedNonEmpty } from "../shared/codecs.js";
import { MAX_TAGS_PER_CONTACT_CALL } from "../tags/model.js";
import { TagNameInput } from "../tags/tag-name-input.js";
import { boundedArray } from "../shared/bounded-array.js";
import { ATTRIBUTE_LIMITS, boundedJsonObject } from "../shared/bounded-json.js";
import { withSchema } from "../shared/json-schema.js";
import { DUPLICATE_STRATEGIES, OPT_IN_MODES, SUBSCRIBER_STATUSES } from "./model.js";
import { MAX_ACTIVITY_LIMIT } from "./activity-cursor.js";

/**
 * Inputs of the subscriber routes (compat-reference §4). Types and enumerations are checked here
 * (422); rules that need the contact or the database (email needed to create, 409 on a taken
 * externalId, the reserved `account` attribute) are the use cases' (400/404/409).
 */

export const SubscriberStatusCodec = oneOf(SUBSCRIBER_STATUSES, "SubscriberStatus");
export const DuplicateStrategyCodec = oneOf(DUPLICATE_STRATEGIES, "DuplicateStrategy");
export const OptInModeCodec = oneOf(OPT_IN_MODES, "OptInMode");
export const AttributesStrategyCodec = oneOf(["replace", "merge"] as const, "CustomAttributesStrategy");

/** An IANA time zone name (`Europe/Paris`), as the runtime knows them. */
export const TimeZone = withSchema(
  new t.Type<string, string, unknown>(
    "TimeZone",
    (u): u is string => typeof u === "string",
    (u, c) => {
      if (typeof u !== "string") return t.failure(u, c, "must be a string");
      const zone = u.trim();
      try {
        new Intl.DateTimeFormat("en-US", { timeZone: zone });
        return zone ? t.success(zone) : t.failure(u, c, "must be an IANA time zone such as Europe/Paris");
      } catch {
        return t.failure(u, c, "must be an IANA time zone such as Europe/Paris");
      }
    },
    t.identity,
  ),
  { type: "string", description: "IANA time zone, e.g. Europe/Paris" },
);

/** Custom attributes: a JSON object whose values keep their JSON types, within ATTRIBUTE_LIMITS. */
export const CustomAttributes = boundedJsonObject(ATTRIBUTE_LIMITS, "CustomAttributes");

/** A string of at most `max` characters after trimming; "" is kept (it clears the field). */
const shortText = (max: number) =>
  withSchema(
    new t.Type<string, string, unknown>(
      `Text(0..${max})`,
      (u): u is string => typeof u === "string" && u.length <= max,
      (u, c) => {
        if (typeof u !== "string") return t.failure(u, c, "must be a string");
        const trimmed = u.trim();
        return trimmed.length <= max ? t.success(trimmed) : t.failure(u, c, `must be at most ${max} characters`);
      },
      t.identity,
    ),
    { type: "string", maxLength: max },
  );

const Name = optional(t.union([shortText(255), t.null]));
const Phone = optional(t.union([shortText(40), t.null]));
const PhoneCountry = optional(t.union([shortText(2), t.null]));
const ExternalId = boundedText(255);
/** Tag names as given (normalised later: "Pro Customer" -> pro-customer). */
const TagNames = boundedArray(TagNameInput, 0, MAX_TAGS_PER_CONTACT_CALL);
/** List IDs or names. */
/** Lists one request may name at once. */
export const MAX_LISTS_PER_REQUEST = 100;
const ListReferences = boundedArray(boundedText(255), 0, MAX_LISTS_PER_REQUEST);

/** POST /subscribers: create, or match an existing contact by email then externalId. */
export const CreateSubscriberCommand = t.exact(
  t.partial({
    email: optional(Email),
    externalId: optional(t.union([ExternalId, t.null])),
    firstName: Name,
    lastName: Name,
    phone: Phone,
    phoneCountry: PhoneCountry,
    smsConsent: optional(t.boolean),
    timezone: optional(t.union([TimeZone, t.null])),
    customAttributes: optional(CustomAttributes),
    tags: optional(TagNames),
    lists: optional(ListReferences),
    status: optional(SubscriberStatusCodec),
    optInMode: optional(OptInModeCodec),
    duplicateStrategy: optional(DuplicateStrategyCodec),
    enrollInSequences: optional(t.boolean),
    createdAt: optional(IsoDate),
  }),
  "CreateSubscriberCommand",
);
export type CreateSubscriberCommand = t.TypeOf<typeof CreateSubscriberCommand>;

/** PATCH /subscribers/{email}: only the given fields change. */
export const UpdateSubscriberCommand = t.exact(
  t.partial({
    email: optional(Email),
    externalId: optional(t.union([shortText(255), t.null])),
    firstName: Name,
    lastName: Name,
    timezone: optional(t.union([TimeZone, t.null])),
    phone: Phone,
    phoneCountry: PhoneCountry,
    smsConsent: optional(t.boolean),
    status: optional(SubscriberStatusCodec),
    customAttributes: optional(CustomAttributes),
    customAttributesStrategy: optional(AttributesStrategyCodec),
    tags: optional(TagNames),
  }),
  "UpdateSubscriberCommand",
);
export type UpdateSubscriberCommand = t.TypeOf<typeof UpdateSubscriberCommand>;

/** A nonblank string that says "is required" when it is missing (query strings). */
const RequiredText = withSchema(
  new t.Type<string, string, unknown>(
    "RequiredText",
    TrimmedNonEmpty.is,
    (u, c) => (u === undefined ? t.failure(u, c, "is required") : TrimmedNonEmpty.validate(u, c)),
    t.identity,
  ),
  { type: "string", minLength: 1 },
);

/** The contact named in the path: the URL-decoded email (looked up lower-cased). */
export const SubscriberEmailPath = t.type({ email: TrimmedNonEmpty }, "SubscriberEmailPath");
/** `/subscribers/external?externalId=`: for IDs with `/` or no known email. */
export const ExternalIdQuery = t.type({ externalId: RequiredText }, "ExternalIdQuery");

export const LIST_STATUSES = [...SUBSCRIBER_STATUSES, "all"] as const;
export type ListStatus = (typeof LIST_STATUSES)[number];
export const ATTRIBUTE_OPERATORS = ["is", "contains", "gt", "gte", "lt", "lte", "is_not_empty"] as const;
export type AttributeOperator = (typeof ATTRIBUTE_OPERATORS)[number];
export const LIST_SORTS = ["createdAt", "engagement"] as const;

export const DEFAULT_PAGE_SIZE = 20;
/** Documented as 100; the newer official client asks for up to 1000, so 1000 is served. */
export const MAX_PAGE_SIZE = 1000;

const Positive = withSchema(
  new t.Type<number, string, unknown>(
    "PositiveInteger",
    (u): u is number => Number.isInteger(u) && (u as number) >= 1,
    (u, c) => {
      const parsed = IntegerFromString.validate(u, c);
      if (parsed._tag === "Left") return parsed;
      return parsed.right >= 1 ? t.success(parsed.right) : t.failure(u, c, "must be at least 1");
    },
    String,
  ),
  { type: "integer", minimum: 1 },
);

/** GET /subscribers: filters and pagination (page, or cursor with includeTotal=false). */
export const ListSubscribersQuery = t.exact(
  t.partial({
    query: optional(t.string),
    email: optional(t.string),
    tags: optional(t.string),
    list: optional(t.string),
    listId: optional(t.string),
    listName: optional(t.string),
    segmentId: optional(t.string),
    status: optional(oneOf(LIST_STATUSES, "ListStatus")),
    unsubscribedAfter: optional(IsoDate),
    unsubscribedBefore: optional(IsoDate),
    attribute: optional(t.string),
    attributeOperator: optional(oneOf(ATTRIBUTE_OPERATORS, "AttributeOperator")),
    page: optional(Positive),
    limit: optional(Positive),
    cursor: optional(t.string),
    includeTotal: optional(BooleanFromString),
    sort: optional(oneOf(LIST_SORTS, "ListSort")),
  }),
  "ListSubscribersQuery",
);
export type ListSubscribersQuery = t.TypeOf<typeof ListSubscribersQuery>;

/** GET /subscribers/{email}: machine opens and clicks in the stats, and the page of activity. */
const detailFields = {
  includeMachineEngagement: optional(BooleanFromString),
  activityLimit: optional(integerBetween(1, MAX_ACTIVITY_LIMIT)),
  activityCursor: optional(t.string),
};
export const SubscriberDetailQuery = t.exact(t.partial(detailFields), "SubscriberDetailQuery");
export const ExternalDetailQuery = t.exact(t.intersection([ExternalIdQuery, t.partial(detailFields)]), "ExternalDetailQuery");
