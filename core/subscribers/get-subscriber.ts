import type { NoteRepository } from "../notes/ports.js";
import { toNoteView } from "../notes/view.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import { activityCursorOf, DEFAULT_ACTIVITY_LIMIT, readActivityCursor } from "./activity-cursor.js";
import { identifySubscriber, type SubscriberRef } from "./identify.js";
import type { ContactEnrollments, SubscriberRepository } from "./ports.js";
import type { ContactActivity, ListMembership, SubscriberQueries } from "./queries.js";
import type { ContactEmailEvent, ContactEmailStats, ContactEngagementQueries, StoredEmailEventType } from "./engagement.js";
import { toSubscriberView, type ActivityView, type EmailStatsView, type MembershipView, type SubscriberDetailView } from "./view.js";

const toMembershipView = (m: ListMembership): MembershipView => ({
  id: m.id,
  name: m.name,
  description: m.description,
  isPrivate: m.isPrivate,
  subscribedAt: m.subscribedAt.toISOString(),
  unsubscribedAt: m.unsubscribedAt?.toISOString() ?? null,
});

const toCustomActivityView = (event: ContactActivity): ActivityView => ({
  id: event.id,
  eventType: "custom",
  eventName: event.name,
  eventTime: event.occurredAt.toISOString(),
  properties: event.properties,
  campaignId: null,
  emailSendId: null,
  clickedUrl: null,
  bounceType: null,
  machine: false,
  engagementQuality: null,
  classificationReasons: [],
});

const EMAIL_EVENT_NAMES: Record<StoredEmailEventType, ActivityView["eventType"]> = {
  send: "email.sent",
  delivery: "email.delivered",
  delivery_delay: "email.delivery_delayed",
  transport_failure: "email.failed",
  bounce: "email.bounced",
  complaint: "email.complained",
  open: "email.opened",
  click: "email.clicked",
  unsubscribe: "email.unsubscribed",
  reply: "email.replied",
};

const toEmailActivityView = (event: ContactEmailEvent): ActivityView => {
  const engagement = event.type === "open" || event.type === "click";
  return {
    id: event.id,
    eventType: EMAIL_EVENT_NAMES[event.type],
    eventName: event.subject,
    eventTime: event.occurredAt.toISOString(),
    properties: {},
    campaignId: event.campaignId,
    emailSendId: event.emailSendId,
    clickedUrl: event.type === "click" ? event.url : null,
    bounceType: event.type === "bounce" ? event.bounceType : null,
    machine: event.machine,
    engagementQuality: engagement ? (event.machine ? "machine" : "human") : null,
    classificationReasons: event.machineReason ? [event.machineReason] : [],
  };
};

const toEmailStatsView = (stats: ContactEmailStats): EmailStatsView => ({
  ...stats,
  lastSentAt: stats.lastSentAt?.toISOString() ?? null,
  lastOpenedAt: stats.lastOpenedAt?.toISOString() ?? null,
  lastClickedAt: stats.lastClickedAt?.toISOString() ?? null,
});

/** Newest first; at the same instant, the higher ID first (both kinds of IDs sort by time). */
const newestFirst = (a: ActivityView, b: ActivityView) => (a.eventTime === b.eventTime ? (a.id < b.id ? 1 : -1) : a.eventTime < b.eventTime ? 1 : -1);

/**
 * GET /subscribers/{email} (or by externalId): the record with notes, lists, sequence runs, email
 * statistics and the latest activity, custom events and email events merged, newest first, a page at a time
 * (`activityLimit`, and `activityCursor` from the previous page's `activityPagination`).
 */
export interface SubscriberDetailOptions {
  readonly includeMachineEngagement?: boolean | undefined;
  readonly activityLimit?: number | undefined;
  readonly activityCursor?: string | undefined;
}

export class GetSubscriber {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly queries: SubscriberQueries,
    private readonly engagement: ContactEngagementQueries,
    private readonly notes: NoteRepository,
    private readonly enrollments: ContactEnrollments,
  ) {}

  execute = async (actor: Actor, ref: SubscriberRef, options: SubscriberDetailOptions = {}): Promise<Result<SubscriberDetailView>> => {
    const before = readActivityCursor(options.activityCursor);
    if (before._tag === "Left") return before;
    const found = await identifySubscriber(this.subscribers, actor.companyId, ref);
    if (found._tag === "Left") return found;
    const subscriber = found.right;
    const limit = options.activityLimit ?? DEFAULT_ACTIVITY_LIMIT;
    // One more of each kind than the page shows tells whether another page follows.
    const [notes, lists, customEvents, emailEvents, emailStats, sequenceEnrollments] = await Promise.all([
      this.notes.listForSubscriber(actor.companyId, subscriber.id),
      this.queries.memberships(actor.companyId, subscriber.id),
      this.queries.recentEvents(actor.companyId, subscriber.id, limit + 1, before.right),
      this.engagement.recentEmailEvents(actor.companyId, subscriber.id, limit + 1, before.right),
      this.engagement.emailStats(actor.companyId, subscriber.id, { includeMachineEngagement: options.includeMachineEngagement ?? false }),
      this.enrollments.ofContact(actor.companyId, subscriber.id),
    ]);
    const merged = [...customEvents.map(toCustomActivityView), ...emailEvents.map(toEmailActivityView)].sort(newestFirst);
    const activity = merged.slice(0, limit);
    const last = activity.at(-1);
    const hasMore = merged.length > limit && last !== undefined;
    return ok({
      ...toSubscriberView(subscriber),
      notes: notes.map(toNoteView),
      lists: lists.map(toMembershipView),
      sequenceEnrollments,
      emailStats: toEmailStatsView(emailStats),
      activity,
      activityPagination: {
        limit,
        nextCursor: hasMore ? activityCursorOf({ at: new Date(last.eventTime), id: last.id }) : null,
        hasMore,
      },
    });
  };
}
