import type { NoteRepository } from "../notes/ports.js";
import { toNoteView } from "../notes/view.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import { identifySubscriber, type SubscriberRef } from "./identify.js";
import type { SubscriberRepository } from "./ports.js";
import type { ContactActivity, ListMembership, SubscriberQueries } from "./queries.js";
import { toSubscriberView, type ActivityView, type MembershipView, type SubscriberDetailView } from "./view.js";

/** How many of the contact's latest custom events the detail shows. */
export const ACTIVITY_LIMIT = 50;

const toMembershipView = (m: ListMembership): MembershipView => ({
  id: m.id,
  name: m.name,
  description: m.description,
  isPrivate: m.isPrivate,
  subscribedAt: m.subscribedAt.toISOString(),
  unsubscribedAt: m.unsubscribedAt?.toISOString() ?? null,
});

const toActivityView = (event: ContactActivity): ActivityView => ({
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

/** GET /subscribers/{email} (or by externalId): the record with notes, lists and latest activity. */
export class GetSubscriber {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly queries: SubscriberQueries,
    private readonly notes: NoteRepository,
  ) {}

  execute = async (actor: Actor, ref: SubscriberRef): Promise<Result<SubscriberDetailView>> => {
    const found = await identifySubscriber(this.subscribers, actor.companyId, ref);
    if (found._tag === "Left") return found;
    const subscriber = found.right;
    const [notes, lists, activity] = await Promise.all([
      this.notes.listForSubscriber(actor.companyId, subscriber.id),
      this.queries.memberships(actor.companyId, subscriber.id),
      this.queries.recentEvents(actor.companyId, subscriber.id, ACTIVITY_LIMIT),
    ]);
    return ok({
      ...toSubscriberView(subscriber),
      notes: notes.map(toNoteView),
      lists: lists.map(toMembershipView),
      sequenceEnrollments: [],
      emailStats: null,
      activity: activity.map(toActivityView),
    });
  };
}
