import * as t from "io-ts";
import { NoteView } from "../notes/view.js";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view, viewWithOptional } from "../shared/view-fields.js";
import { SMS_STATUSES, SUBSCRIBER_STATUSES, type TaggedSubscriber } from "./model.js";

const Attributes = t.record(t.string, t.unknown, "Attributes");

const subscriberFields = {
  id: Id,
  email: t.string,
  externalId: NullableString,
  firstName: NullableString,
  lastName: NullableString,
  phone: NullableString,
  smsStatus: oneOf(SMS_STATUSES, "SmsStatus"),
  status: oneOf(SUBSCRIBER_STATUSES, "SubscriberStatus"),
  emailProvider: NullableString,
  timezone: NullableString,
  tags: t.readonlyArray(t.string),
  customAttributes: Attributes,
  unsubscribedAt: NullableTimestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

/** The subscriber record of the API (compat-reference, Subscribers); other routes returning a contact use it too. */
export const SubscriberView = view(subscriberFields, "Subscriber");
export type SubscriberView = t.TypeOf<typeof SubscriberView>;

export const toSubscriberView = (s: TaggedSubscriber): SubscriberView => ({
  id: s.id,
  email: s.email,
  externalId: s.externalId,
  firstName: s.firstName,
  lastName: s.lastName,
  phone: s.phone,
  smsStatus: s.smsStatus,
  status: s.status,
  emailProvider: s.emailProvider,
  timezone: s.timezone,
  tags: s.tags,
  customAttributes: s.customAttributes,
  unsubscribedAt: s.unsubscribedAt?.toISOString() ?? null,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
});

/** What the activity calls each kind of event: custom events, and email events by their webhook names. */
export const ACTIVITY_EVENT_TYPES = [
  "custom",
  "email.sent",
  "email.delivered",
  "email.delivery_delayed",
  "email.failed",
  "email.bounced",
  "email.complained",
  "email.opened",
  "email.clicked",
  "email.unsubscribed",
  "email.replied",
] as const;

/** One of the contact's latest events in its detail: a custom event, or an event of an email sent to it. */
export const ActivityView = view(
  {
    id: Id,
    eventType: oneOf(ACTIVITY_EVENT_TYPES, "ActivityEventType"),
    /** A custom event's name; for an email event, the email's subject. */
    eventName: t.string,
    eventTime: Timestamp,
    properties: Attributes,
    campaignId: NullableString,
    emailSendId: NullableString,
    clickedUrl: NullableString,
    bounceType: NullableString,
    /** An open or click by a scanner, preview or prefetch. */
    machine: t.boolean,
    /** For opens and clicks: `human` or `machine`; null for every other event. */
    engagementQuality: t.union([oneOf(["human", "machine", "asset"], "EngagementQuality"), t.null]),
    classificationReasons: t.readonlyArray(t.string),
  },
  "SubscriberActivity",
);
export type ActivityView = t.TypeOf<typeof ActivityView>;

/** Counts of the email sent to the contact (test sends left out), and its latest times. */
export const EmailStatsView = view(
  {
    sent: t.number,
    delivered: t.number,
    opened: t.number,
    clicked: t.number,
    bounced: t.number,
    complained: t.number,
    unsubscribed: t.number,
    lastSentAt: NullableTimestamp,
    lastOpenedAt: NullableTimestamp,
    lastClickedAt: NullableTimestamp,
  },
  "SubscriberEmailStats",
);
export type EmailStatsView = t.TypeOf<typeof EmailStatsView>;

/** A list the contact belongs to, with when it joined (and left). */
export const MembershipView = view(
  { id: Id, name: t.string, description: NullableString, isPrivate: t.boolean, subscribedAt: Timestamp, unsubscribedAt: NullableTimestamp },
  "SubscriberList",
);
export type MembershipView = t.TypeOf<typeof MembershipView>;

/** One run of the contact through a sequence, as the contact's detail lists it. */
export const ContactEnrollmentView = view(
  {
    /** The enrollment's ID. */
    tokenId: t.string,
    sequenceId: t.string,
    sequenceName: NullableString,
    sequenceStatus: NullableString,
    enrollmentStatus: t.string,
    currentNodeId: t.string,
    currentNodeType: NullableString,
    currentNodeLabel: NullableString,
    enteredAt: Timestamp,
    /** When a waiting run takes its next step; null otherwise. */
    scheduledFor: NullableTimestamp,
    updatedAt: Timestamp,
  },
  "ContactEnrollment",
);
export type ContactEnrollmentView = t.TypeOf<typeof ContactEnrollmentView>;

/** The record with notes, lists and latest activity. */
export const SubscriberDetailView = view(
  {
    ...subscriberFields,
    /** Team-only: the detail is read with an API key, never shown to the contact. */
    notes: t.readonlyArray(NoteView),
    lists: t.readonlyArray(MembershipView),
    /** The contact's runs through sequences, latest started first (compat-reference §3). */
    sequenceEnrollments: t.readonlyArray(ContactEnrollmentView),
    /** Opens and clicks by machines count only with `includeMachineEngagement=true`. */
    emailStats: EmailStatsView,
    activity: t.readonlyArray(ActivityView),
    /** The activity's page: `activityCursor=<nextCursor>` shows the events before it. */
    activityPagination: view({ limit: t.number, nextCursor: NullableString, hasMore: t.boolean }, "ActivityPagination"),
  },
  "SubscriberDetail",
);
export type SubscriberDetailView = t.TypeOf<typeof SubscriberDetailView>;

/** The answer to POST /subscribers: the contact and what happened to it. */
export const CreatedSubscriberView = viewWithOptional(
  { subscriber: view({ ...subscriberFields, created: t.boolean, updated: t.boolean, skipped: t.boolean }, "SavedSubscriber") },
  {
    /**
     * Present when double opt-in applies (`optInMode: double_opt_in`, or `default` with the company's
     * doubleOptInEnabled): whether the contact has to confirm, and whether this request queued the email.
     */
    optIn: view({ required: t.boolean, emailQueued: t.boolean }, "OptIn"),
    /** Why a confirmation email due was not queued (no verified sender, sent less than 10 minutes ago). */
    warnings: t.readonlyArray(t.string),
  },
  "CreatedSubscriber",
);
export type CreatedSubscriberView = t.TypeOf<typeof CreatedSubscriberView>;

export const DeletedSubscriberView = view(
  { deleted: t.literal(true), hardDeleted: t.literal(true), subscriber: view({ id: Id, email: t.string }) },
  "DeletedSubscriber",
);
export type DeletedSubscriberView = t.TypeOf<typeof DeletedSubscriberView>;

/** A page of contacts. */
export const SubscriberListingView = view(
  {
    subscribers: t.readonlyArray(SubscriberView),
    pagination: view({
      /** null when the page was reached with a cursor. */
      page: t.union([t.number, t.null]),
      limit: t.number,
      /** null with includeTotal=false and for attribute searches. */
      total: t.union([t.number, t.null]),
      totalPages: t.union([t.number, t.null]),
      nextCursor: NullableString,
      hasMore: t.boolean,
    }),
    returned: t.number,
    /** More contacts match than this page holds. */
    truncated: t.boolean,
  },
  "SubscriberListing",
);
export type SubscriberListingView = t.TypeOf<typeof SubscriberListingView>;
