import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import {
  CreateSubscriberCommand,
  ExternalDetailQuery,
  ExternalIdQuery,
  ListSubscribersQuery,
  SubscriberDetailQuery,
  SubscriberEmailPath,
  UpdateSubscriberCommand,
} from "../../../core/subscribers/commands.js";
import { CreateSubscriber, type CreatedSubscriber } from "../../../core/subscribers/create-subscriber.js";
import { DeleteSubscriber, type DeletedSubscriber } from "../../../core/subscribers/delete-subscriber.js";
import { GetSubscriber } from "../../../core/subscribers/get-subscriber.js";
import { ListSubscribers, type SubscriberListing } from "../../../core/subscribers/list-subscribers.js";
import { SMS_STATUSES, SUBSCRIBER_STATUSES } from "../../../core/subscribers/model.js";
import { UpdateSubscriber } from "../../../core/subscribers/update-subscriber.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, NullableTimestamp, Timestamp } from "../../../core/shared/view-fields.js";
import { NoteView } from "../../../core/notes/view.js";

const keys = <K extends string>(values: readonly K[]) => t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<K, null>);

/** The subscriber record (compat-reference §4), for the description; other routes returning a contact use it too. */
export const SubscriberResource = t.type({
  id: Id,
  email: t.string,
  externalId: NullableString,
  firstName: NullableString,
  lastName: NullableString,
  phone: NullableString,
  smsStatus: keys(SMS_STATUSES),
  status: keys(SUBSCRIBER_STATUSES),
  emailProvider: NullableString,
  timezone: NullableString,
  tags: t.array(t.string),
  customAttributes: t.record(t.string, t.unknown),
  unsubscribedAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const SubscriberDetailResource = t.intersection([
  SubscriberResource,
  t.type({
    notes: t.array(NoteView),
    lists: t.array(t.type({ id: Id, name: t.string, description: NullableString, isPrivate: t.boolean, subscribedAt: Timestamp, unsubscribedAt: NullableTimestamp })),
    sequenceEnrollments: t.array(t.record(t.string, t.unknown)),
    emailStats: t.null,
    activity: t.array(
      t.type({
        id: Id,
        eventType: t.literal("custom"),
        eventName: t.string,
        eventTime: Timestamp,
        properties: t.record(t.string, t.unknown),
        campaignId: t.null,
        emailSendId: t.null,
        clickedUrl: t.null,
        bounceType: t.null,
        machine: t.boolean,
        engagementQuality: t.null,
        classificationReasons: t.array(t.string),
      }),
    ),
  }),
]);

const CreatedResource = t.intersection([
  t.type({ subscriber: t.intersection([SubscriberResource, t.type({ created: t.boolean, updated: t.boolean, skipped: t.boolean })]) }),
  t.partial({ optIn: t.type({ required: t.boolean, emailQueued: t.boolean }), warnings: t.array(t.string) }),
]);

const DeletedResource = t.type({ deleted: t.literal(true), hardDeleted: t.literal(true), subscriber: t.type({ id: Id, email: t.string }) });

const ListingResource = t.type({
  subscribers: t.array(SubscriberResource),
  pagination: t.type({
    page: t.union([t.number, t.null]),
    limit: t.number,
    total: t.union([t.number, t.null]),
    totalPages: t.union([t.number, t.null]),
    nextCursor: NullableString,
    hasMore: t.boolean,
  }),
  returned: t.number,
  truncated: t.boolean,
});

const BY_EMAIL = "the contact's email, URL-encoded";
const BY_EXTERNAL_ID = "by externalId in the query string (for IDs containing `/`, or contacts without a known email)";

/**
 * Subscribers. `/subscribers/external` is declared before `/subscribers/:email`, and these
 * routes are mounted last, after every fixed `/subscribers/...` path.
 */
export const subscribersRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "post",
    path: "/subscribers",
    tag: "Subscribers",
    scopes: ["subscribers:write"],
    summary: "Create a subscriber, or match an existing one (email, then externalId) and apply duplicateStrategy (skip, merge, overwrite)",
    body: CreateSubscriberCommand,
    response: CreatedResource,
    errors: [400, 404, 409, 422],
    handle: async ({ input, actor, container }) => map((created: CreatedSubscriber) => ({ ...created }))(await container.get(CreateSubscriber).execute(actor, input.body)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/subscribers",
    tag: "Subscribers",
    scopes: ["subscribers:read"],
    summary:
      "List subscribers, newest first: query, email, tags (comma, all required), list/listId/listName, segmentId, status, unsubscribedAfter/Before, attribute name:value with attributeOperator (then by ID ascending, no total); page or cursor, limit 1-1000 (default 20)",
    query: ListSubscribersQuery,
    response: ListingResource,
    errors: [400, 404, 422],
    handle: async ({ input, actor, container }) => map((listing: SubscriberListing) => ({ ...listing }))(await container.get(ListSubscribers).execute(actor, input.query)),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/subscribers/external",
    tag: "Subscribers",
    scopes: ["subscribers:read"],
    summary: `Get a subscriber with notes, lists and latest activity, ${BY_EXTERNAL_ID}`,
    query: ExternalDetailQuery,
    response: t.type({ subscriber: SubscriberDetailResource }),
    errors: [404, 422],
    handle: async ({ input, actor, container }) =>
      map((subscriber) => ({ subscriber }))(await container.get(GetSubscriber).execute(actor, { externalId: input.query.externalId })),
  }),
  defineUncheckedRoute({
    method: "patch",
    path: "/subscribers/external",
    tag: "Subscribers",
    scopes: ["subscribers:write"],
    summary: `Update a subscriber ${BY_EXTERNAL_ID}; status unsubscribed is a global unsubscribe`,
    query: ExternalIdQuery,
    body: UpdateSubscriberCommand,
    response: t.type({ subscriber: SubscriberResource }),
    errors: [400, 404, 409, 422],
    handle: async ({ input, actor, container }) =>
      map((subscriber) => ({ subscriber }))(await container.get(UpdateSubscriber).execute(actor, { externalId: input.query.externalId }, input.body)),
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/subscribers/external",
    tag: "Subscribers",
    scopes: ["subscribers:delete"],
    summary: `Delete a subscriber for good (notes, memberships and events go with it), ${BY_EXTERNAL_ID}`,
    query: ExternalIdQuery,
    response: DeletedResource,
    errors: [404, 422],
    handle: async ({ input, actor, container }) =>
      map((deleted: DeletedSubscriber) => ({ ...deleted }))(await container.get(DeleteSubscriber).execute(actor, { externalId: input.query.externalId })),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/subscribers/:email",
    tag: "Subscribers",
    scopes: ["subscribers:read"],
    summary: `Get a subscriber with notes, lists and latest activity; ${BY_EMAIL}`,
    params: SubscriberEmailPath,
    query: SubscriberDetailQuery,
    response: t.type({ subscriber: SubscriberDetailResource }),
    errors: [404, 422],
    handle: async ({ input, actor, container }) => map((subscriber) => ({ subscriber }))(await container.get(GetSubscriber).execute(actor, { email: input.params.email })),
  }),
  defineUncheckedRoute({
    method: "patch",
    path: "/subscribers/:email",
    tag: "Subscribers",
    scopes: ["subscribers:write"],
    summary: `Update a subscriber; ${BY_EMAIL}; status unsubscribed is a global unsubscribe`,
    params: SubscriberEmailPath,
    body: UpdateSubscriberCommand,
    response: t.type({ subscriber: SubscriberResource }),
    errors: [400, 404, 409, 422],
    handle: async ({ input, actor, container }) =>
      map((subscriber) => ({ subscriber }))(await container.get(UpdateSubscriber).execute(actor, { email: input.params.email }, input.body)),
  }),
  defineUncheckedRoute({
    method: "delete",
    path: "/subscribers/:email",
    tag: "Subscribers",
    scopes: ["subscribers:delete"],
    summary: `Delete a subscriber for good (notes, memberships and events go with it); ${BY_EMAIL}`,
    params: SubscriberEmailPath,
    response: DeletedResource,
    errors: [404],
    handle: async ({ input, actor, container }) => map((deleted: DeletedSubscriber) => ({ ...deleted }))(await container.get(DeleteSubscriber).execute(actor, { email: input.params.email })),
  }),
];
