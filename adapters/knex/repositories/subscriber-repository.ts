import * as t from "io-ts";
import type { Knex } from "knex";
import { subscriberWebhookEvent } from "../../../core/webhooks/event-data.js";
import type { KnexWebhookPublisher } from "../knex-webhook-publisher.js";
import { publishMembershipEvents } from "../list-membership-events.js";
import { oneOf } from "../../../core/shared/codecs.js";
import {
  SMS_STATUSES,
  SUBSCRIBER_STATUSES,
  type Attributes,
  type Subscriber,
  type SubscriberStatus,
  type TaggedSubscriber,
} from "../../../core/subscribers/model.js";
import type { ContactChanges, ResolvedLists, SubscriberRepository } from "../../../core/subscribers/ports.js";
import type { IdGenerator } from "../../../core/ports/id-generator.js";
import { DbDate, DbNullableDate, dbJson, decodeRow, toDbDate } from "../row-codecs.js";

export const SubscriberRow = t.type({
  id: t.string,
  company_id: t.string,
  email: t.string,
  external_id: t.union([t.string, t.null]),
  first_name: t.union([t.string, t.null]),
  last_name: t.union([t.string, t.null]),
  phone: t.union([t.string, t.null]),
  sms_status: oneOf(SMS_STATUSES),
  status: oneOf(SUBSCRIBER_STATUSES),
  email_provider: t.union([t.string, t.null]),
  timezone: t.union([t.string, t.null]),
  custom_attributes: dbJson(t.record(t.string, t.unknown)),
  unsubscribed_at: DbNullableDate,
  created_at: DbDate,
  updated_at: DbDate,
});

export function toSubscriber(row: unknown): Subscriber {
  const r = decodeRow(SubscriberRow, row, "subscribers");
  return {
    id: r.id,
    companyId: r.company_id,
    email: r.email,
    externalId: r.external_id,
    firstName: r.first_name,
    lastName: r.last_name,
    phone: r.phone,
    smsStatus: r.sms_status,
    status: r.status,
    emailProvider: r.email_provider,
    timezone: r.timezone,
    customAttributes: r.custom_attributes as Attributes,
    unsubscribedAt: r.unsubscribed_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

export function subscriberColumns(s: Subscriber) {
  return {
    id: s.id,
    company_id: s.companyId,
    email: s.email,
    external_id: s.externalId,
    first_name: s.firstName,
    last_name: s.lastName,
    phone: s.phone,
    sms_status: s.smsStatus,
    status: s.status,
    email_provider: s.emailProvider,
    timezone: s.timezone,
    custom_attributes: JSON.stringify(s.customAttributes),
    unsubscribed_at: toDbDate(s.unsubscribedAt),
    created_at: toDbDate(s.createdAt),
    updated_at: toDbDate(s.updatedAt),
  };
}

/** Tag names per subscriber, alphabetical. */
export async function tagNamesOf(db: Knex | Knex.Transaction, companyId: string, subscriberIds: readonly string[]): Promise<Map<string, string[]>> {
  const names = new Map<string, string[]>(subscriberIds.map((id) => [id, []]));
  if (subscriberIds.length === 0) return names;
  const rows: Array<{ subscriber_id: string; name: string }> = await db("subscriber_tags")
    .join("tags", "tags.id", "subscriber_tags.tag_id")
    .where("subscriber_tags.company_id", companyId)
    .whereIn("subscriber_tags.subscriber_id", subscriberIds)
    .orderBy("tags.name")
    .select("subscriber_tags.subscriber_id", "tags.name");
  for (const row of rows) names.get(row.subscriber_id)?.push(row.name);
  return names;
}

/** Rows to tagged subscribers, in the same order, reading every tag in one query. */
export async function withTags(db: Knex | Knex.Transaction, companyId: string, rows: readonly unknown[]): Promise<TaggedSubscriber[]> {
  const subscribers = rows.map(toSubscriber);
  const tags = await tagNamesOf(
    db,
    companyId,
    subscribers.map((s) => s.id),
  );
  return subscribers.map((s) => ({ ...s, tags: tags.get(s.id) ?? [] }));
}

/** Tag IDs for normalised names, creating the missing tags. */
export async function ensureTags(db: Knex | Knex.Transaction, ids: IdGenerator, companyId: string, names: readonly string[], now: Date): Promise<string[]> {
  if (names.length === 0) return [];
  const at = toDbDate(now);
  await db("tags")
    .insert(names.map((name) => ({ id: ids.next("tag"), company_id: companyId, name, color: "gray", is_system: false, created_at: at, updated_at: at })))
    .onConflict(["company_id", "name"])
    .ignore();
  const rows: Array<{ id: string }> = await db("tags").where({ company_id: companyId }).whereIn("name", names).select("id");
  return rows.map((row) => row.id);
}

const LIST_ID = /^list_[0-9A-Za-z]+$/;

export class KnexSubscriberRepository implements SubscriberRepository {
  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
    /** Publishes subscriber.created, .updated and .unsubscribed to the company's webhooks, in the transaction of the change. */
    private readonly webhooks?: KnexWebhookPublisher,
  ) {}

  findById(companyId: string, id: string): Promise<TaggedSubscriber | null> {
    return this.findOne(companyId, { id });
  }

  async findByIds(companyId: string, ids: readonly string[]): Promise<TaggedSubscriber[]> {
    if (ids.length === 0) return [];
    return withTags(this.knex, companyId, await this.knex("subscribers").where({ company_id: companyId }).whereIn("id", ids));
  }

  findByEmail(companyId: string, email: string): Promise<TaggedSubscriber | null> {
    return this.findOne(companyId, { email: email.toLowerCase() });
  }

  findByExternalId(companyId: string, externalId: string): Promise<TaggedSubscriber | null> {
    return this.findOne(companyId, { external_id: externalId });
  }

  async insert(subscriber: Subscriber, changes: ContactChanges): Promise<TaggedSubscriber | null> {
    let published = 0;
    const saved = await this.knex.transaction(async (trx) => {
      const inserted = await trx("subscribers").insert(subscriberColumns(subscriber)).onConflict().ignore().returning("id");
      if (inserted.length === 0) return null;
      const joined = await this.applyChanges(trx, subscriber.companyId, subscriber.id, changes, subscriber.updatedAt);
      if (changes.startOptIn && subscriber.status === "active") {
        await trx("opt_ins").insert({ company_id: subscriber.companyId, subscriber_id: subscriber.id, requested_at: toDbDate(subscriber.createdAt) });
      }
      const contact = await this.findOne(subscriber.companyId, { id: subscriber.id }, trx);
      if (contact && this.webhooks) {
        published = await this.webhooks.publishIn(trx, subscriber.companyId, (wanted) =>
          wanted.has("subscriber.created") ? [subscriberWebhookEvent(this.ids.next("evt"), "subscriber.created", subscriber.createdAt, contact)] : [],
        );
      }
      published += await this.publishJoins(trx, subscriber, joined);
      return contact;
    });
    await this.webhooks?.announce(published);
    return saved;
  }

  async update(subscriber: Subscriber, changes: ContactChanges): Promise<TaggedSubscriber> {
    let published = 0;
    const saved = await this.knex.transaction(async (trx) => {
      const { id, company_id, ...fields } = subscriberColumns(subscriber);
      // The status before, only when a webhook wants to hear of unsubscribes.
      const wanted: ReadonlySet<string> = this.webhooks ? await this.webhooks.wanted(trx, company_id) : new Set<string>();
      const before: { status: string } | undefined = wanted.has("subscriber.unsubscribed")
        ? await trx("subscribers").where({ company_id, id }).first("status")
        : undefined;
      await trx("subscribers").where({ company_id, id }).update(fields);
      const joined = await this.applyChanges(trx, subscriber.companyId, subscriber.id, changes, subscriber.updatedAt);
      const saved = await this.findOne(subscriber.companyId, { id: subscriber.id }, trx);
      if (!saved) throw new Error(`subscriber ${subscriber.id} vanished while being updated`);
      if (this.webhooks && wanted.size > 0) {
        const events = [
          ...(wanted.has("subscriber.updated") ? [subscriberWebhookEvent(this.ids.next("evt"), "subscriber.updated", subscriber.updatedAt, saved)] : []),
          ...(before && before.status !== "unsubscribed" && saved.status === "unsubscribed"
            ? [subscriberWebhookEvent(this.ids.next("evt"), "subscriber.unsubscribed", saved.unsubscribedAt ?? subscriber.updatedAt, saved)]
            : []),
        ];
        published = await this.webhooks.publishIn(trx, company_id, events);
      }
      published += await this.publishJoins(trx, subscriber, joined);
      return saved;
    });
    await this.webhooks?.announce(published);
    return saved;
  }

  async changeStatus(companyId: string, email: string, from: SubscriberStatus, to: SubscriberStatus, at: Date): Promise<boolean> {
    const changed = await this.knex("subscribers")
      .where({ company_id: companyId, email: email.toLowerCase(), status: from })
      .update({ status: to, updated_at: toDbDate(at) });
    return changed > 0;
  }

  async delete(companyId: string, id: string): Promise<boolean> {
    return (await this.knex("subscribers").where({ company_id: companyId, id }).delete()) > 0;
  }

  async resolveLists(companyId: string, references: readonly string[], now: Date): Promise<ResolvedLists> {
    const byId = [...new Set(references.filter((ref) => LIST_ID.test(ref)))];
    const names = [
      ...new Set(
        references
          .filter((ref) => !LIST_ID.test(ref))
          .map((ref) => ref.trim())
          .filter(Boolean),
      ),
    ];
    const found: Array<{ id: string }> = byId.length ? await this.knex("lists").where({ company_id: companyId }).whereIn("id", byId).select("id") : [];
    const known = new Set(found.map((row) => row.id));
    let named: string[] = [];
    if (names.length > 0) {
      const at = toDbDate(now);
      await this.knex("lists")
        .insert(
          names.map((name) => ({
            id: this.ids.next("list"),
            company_id: companyId,
            name,
            is_private: false,
            allow_member_unsubscribe: true,
            created_at: at,
            updated_at: at,
          })),
        )
        .onConflict(["company_id", "name"])
        .ignore();
      const rows: Array<{ id: string }> = await this.knex("lists").where({ company_id: companyId }).whereIn("name", names).select("id");
      named = rows.map((row) => row.id);
    }
    return { ids: [...known, ...named], unknownIds: byId.filter((id) => !known.has(id)) };
  }

  private async findOne(companyId: string, where: Record<string, string>, db: Knex | Knex.Transaction = this.knex): Promise<TaggedSubscriber | null> {
    const [row] = await db("subscribers").where({ company_id: companyId, ...where });
    if (!row) return null;
    const [subscriber] = await withTags(db, companyId, [row]);
    return subscriber ?? null;
  }

  /** subscriber.list_subscribed for each list the contact joined. */
  private publishJoins(trx: Knex.Transaction, subscriber: Subscriber, listIds: readonly string[]): Promise<number> {
    const changes = listIds.map((listId) => ({ subscriberId: subscriber.id, listId }));
    return publishMembershipEvents(this.webhooks, trx, this.ids, subscriber.companyId, "subscriber.list_subscribed", changes, subscriber.updatedAt);
  }

  /** Applies tag and list changes; resolves to the lists the contact joined (was not a member of). */
  private async applyChanges(trx: Knex.Transaction, companyId: string, subscriberId: string, changes: ContactChanges, now: Date): Promise<string[]> {
    const at = toDbDate(now);
    if (changes.replaceTags) {
      const keep = await ensureTags(trx, this.ids, companyId, changes.replaceTags, now);
      await trx("subscriber_tags").where({ company_id: companyId, subscriber_id: subscriberId }).whereNotIn("tag_id", keep).delete();
      await this.addTags(trx, companyId, subscriberId, keep, at);
    }
    if (changes.addTags?.length) {
      await this.addTags(trx, companyId, subscriberId, await ensureTags(trx, this.ids, companyId, changes.addTags, now), at);
    }
    if (changes.removeTags?.length) {
      await trx("subscriber_tags")
        .where({ company_id: companyId, subscriber_id: subscriberId })
        .whereIn("tag_id", trx("tags").where({ company_id: companyId }).whereIn("name", changes.removeTags).select("id"))
        .delete();
    }
    if (!changes.addLists?.length) return [];
    const joined: Array<{ list_id: string }> = await trx("list_memberships")
      .insert(changes.addLists.map((listId) => ({ company_id: companyId, list_id: listId, subscriber_id: subscriberId, subscribed_at: at })))
      .onConflict(["list_id", "subscriber_id"])
      .ignore()
      .returning("list_id");
    return joined.map((row) => row.list_id);
  }

  private async addTags(trx: Knex.Transaction, companyId: string, subscriberId: string, tagIds: readonly string[], at: string | null): Promise<void> {
    if (tagIds.length === 0) return;
    await trx("subscriber_tags")
      .insert(tagIds.map((tagId) => ({ company_id: companyId, subscriber_id: subscriberId, tag_id: tagId, created_at: at })))
      .onConflict(["subscriber_id", "tag_id"])
      .ignore();
  }
}
