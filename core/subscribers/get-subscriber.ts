import type { NoteRepository } from "../notes/ports.js";
import { toNoteView, type NoteView } from "../notes/view.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import { identifySubscriber, type SubscriberRef } from "./identify.js";
import type { SubscriberRepository } from "./ports.js";
import type { ContactActivity, ListMembership, SubscriberQueries } from "./queries.js";
import { toSubscriberView, type SubscriberView } from "./view.js";

/** How many of the contact's latest custom events the detail shows. */
export const ACTIVITY_LIMIT = 50;

export interface ActivityView {
  readonly id: string;
  readonly eventType: "custom";
  readonly eventName: string;
  readonly eventTime: string;
  readonly properties: Readonly<Record<string, unknown>>;
  // Email engagement fields: no emails are sent yet, so custom events carry none of them.
  readonly campaignId: null;
  readonly emailSendId: null;
  readonly clickedUrl: null;
  readonly bounceType: null;
  readonly machine: false;
  readonly engagementQuality: null;
  readonly classificationReasons: readonly string[];
}

export interface SubscriberDetail extends SubscriberView {
  /** Team-only: the detail is read with an API key, never shown to the contact. */
  readonly notes: readonly NoteView[];
  readonly lists: ReadonlyArray<{ id: string; name: string; description: string | null; isPrivate: boolean; subscribedAt: string; unsubscribedAt: string | null }>;
  /** Sequences do not exist yet. */
  readonly sequenceEnrollments: readonly never[];
  /** No email is sent yet: no statistics to show. */
  readonly emailStats: null;
  readonly activity: readonly ActivityView[];
}

const toListView = (m: ListMembership) => ({
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

  execute = async (actor: Actor, ref: SubscriberRef): Promise<Result<SubscriberDetail>> => {
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
      lists: lists.map(toListView),
      sequenceEnrollments: [],
      emailStats: null,
      activity: activity.map(toActivityView),
    });
  };
}
