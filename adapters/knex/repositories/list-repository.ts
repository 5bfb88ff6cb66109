import * as t from "io-ts";
import type { Knex } from "knex";
import type { List, ListChanges, ListWithCounts } from "../../../core/lists/model.js";
import type { ListRepository } from "../../../core/lists/ports.js";
import type { IdGenerator } from "../../../core/ports/id-generator.js";
import type { KnexWebhookPublisher } from "../knex-webhook-publisher.js";
import { publishMembershipEvents } from "../list-membership-events.js";
import { DbBoolean, DbDate, DbInteger, decodeRow, toDbDate } from "../row-codecs.js";
import { isUniqueViolation } from "../unique-violation.js";

const ListRow = t.type({
  id: t.string,
  company_id: t.string,
  name: t.string,
  description: t.union([t.string, t.null]),
  is_private: DbBoolean,
  allow_member_unsubscribe: DbBoolean,
  created_at: DbDate,
  updated_at: DbDate,
  subscriber_count: DbInteger,
  active_subscriber_count: DbInteger,
});

function toList(row: unknown): ListWithCounts {
  const r = decodeRow(ListRow, row, "lists");
  return {
    id: r.id,
    companyId: r.company_id,
    name: r.name,
    description: r.description,
    isPrivate: r.is_private,
    allowMemberUnsubscribe: r.allow_member_unsubscribe,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    subscriberCount: r.subscriber_count,
    activeSubscriberCount: r.active_subscriber_count,
  };
}

const MEMBER_COUNT = "(select count(*) from list_memberships m where m.list_id = lists.id) as subscriber_count";
const ACTIVE_MEMBER_COUNT =
  "(select count(*) from list_memberships m join subscribers s on s.id = m.subscriber_id" +
  " where m.list_id = lists.id and m.unsubscribed_at is null and s.status = 'active') as active_subscriber_count";

/** `lists` and `list_memberships`; counts come from the membership primary key (list_id, subscriber_id). */
export class KnexListRepository implements ListRepository {
  constructor(
    private readonly knex: Knex,
    private readonly ids: IdGenerator,
    /** Publishes subscriber.list_subscribed and .list_unsubscribed to the company's webhooks, in the transaction of the change. */
    private readonly webhooks?: KnexWebhookPublisher,
  ) {}

  private withCounts(companyId: string) {
    return this.knex("lists").where("lists.company_id", companyId).select("lists.*", this.knex.raw(MEMBER_COUNT), this.knex.raw(ACTIVE_MEMBER_COUNT));
  }

  async list(companyId: string): Promise<ListWithCounts[]> {
    return (await this.withCounts(companyId).orderBy("lists.name")).map(toList);
  }

  async find(companyId: string, listId: string): Promise<ListWithCounts | null> {
    const [row] = await this.withCounts(companyId).where("lists.id", listId);
    return row ? toList(row) : null;
  }

  async insert(list: List): Promise<boolean> {
    const inserted = await this.knex("lists")
      .insert({
        id: list.id,
        company_id: list.companyId,
        name: list.name,
        description: list.description,
        is_private: list.isPrivate,
        allow_member_unsubscribe: list.allowMemberUnsubscribe,
        created_at: toDbDate(list.createdAt),
        updated_at: toDbDate(list.updatedAt),
      })
      .onConflict(["company_id", "name"])
      .ignore()
      .returning("id");
    return inserted.length > 0;
  }

  async update(companyId: string, listId: string, changes: ListChanges, at: Date): Promise<"updated" | "not_found" | "duplicate"> {
    const columns = {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.isPrivate !== undefined ? { is_private: changes.isPrivate } : {}),
      ...(changes.allowMemberUnsubscribe !== undefined ? { allow_member_unsubscribe: changes.allowMemberUnsubscribe } : {}),
      updated_at: toDbDate(at),
    };
    try {
      const count = await this.knex("lists").where({ company_id: companyId, id: listId }).update(columns);
      return count > 0 ? "updated" : "not_found";
    } catch (error) {
      if (isUniqueViolation(error)) return "duplicate";
      throw error;
    }
  }

  async delete(companyId: string, listId: string): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      await trx("list_memberships").where({ company_id: companyId, list_id: listId }).delete();
      return (await trx("lists").where({ company_id: companyId, id: listId }).delete()) > 0;
    });
  }

  async contactIdsByEmail(companyId: string, emails: readonly string[]): Promise<Map<string, string>> {
    if (emails.length === 0) return new Map();
    const rows: Array<{ id: string; email: string }> = await this.knex("subscribers")
      .where({ company_id: companyId })
      .whereIn("email", emails)
      .select("id", "email");
    return new Map(rows.map((row) => [row.email, row.id]));
  }

  async addMembers(companyId: string, listId: string, subscriberIds: readonly string[], at: Date): Promise<string[]> {
    if (subscriberIds.length === 0) return [];
    let published = 0;
    const joined = await this.knex.transaction(async (trx) => {
      const subscribedAt = toDbDate(at);
      const inserted: Array<{ subscriber_id: string }> = await trx("list_memberships")
        .insert(subscriberIds.map((subscriberId) => ({ company_id: companyId, list_id: listId, subscriber_id: subscriberId, subscribed_at: subscribedAt })))
        .onConflict(["list_id", "subscriber_id"])
        .ignore()
        .returning("subscriber_id");
      const ids = inserted.map((row) => row.subscriber_id);
      const changes = ids.map((subscriberId) => ({ subscriberId, listId }));
      published = await publishMembershipEvents(this.webhooks, trx, this.ids, companyId, "subscriber.list_subscribed", changes, at);
      return ids;
    });
    await this.webhooks?.announce(published);
    return joined;
  }

  async removeMembers(companyId: string, listId: string, subscriberIds: readonly string[], at: Date): Promise<number> {
    if (subscriberIds.length === 0) return 0;
    let published = 0;
    const removed = await this.knex.transaction(async (trx) => {
      const members = () => trx("list_memberships").where({ company_id: companyId, list_id: listId }).whereIn("subscriber_id", subscriberIds);
      // Those still subscribed leave the list; a membership already unsubscribed goes without an event.
      const leaving: string[] = await members().whereNull("unsubscribed_at").pluck("subscriber_id");
      const count = await members().delete();
      const changes = leaving.map((subscriberId) => ({ subscriberId, listId }));
      published = await publishMembershipEvents(this.webhooks, trx, this.ids, companyId, "subscriber.list_unsubscribed", changes, at);
      return count;
    });
    await this.webhooks?.announce(published);
    return removed;
  }
}
