import type { Knex } from "knex";
import type { IdGenerator } from "../../core/ports/id-generator.js";
import { listWebhookEvent } from "../../core/webhooks/event-data.js";
import type { KnexWebhookPublisher } from "./knex-webhook-publisher.js";

/** A contact that joined or left a list in a write. */
export interface MembershipChange {
  readonly subscriberId: string;
  readonly listId: string;
}

export type MembershipEventType = "subscriber.list_subscribed" | "subscriber.list_unsubscribed";

/**
 * Publishes a list event per membership a write changed, in the write's transaction. The
 * contacts and lists are read only when some webhook of the company wants the event. Resolves
 * to the deliveries queued (for `announce` after the commit).
 */
export async function publishMembershipEvents(
  webhooks: KnexWebhookPublisher | undefined,
  trx: Knex.Transaction,
  ids: IdGenerator,
  companyId: string,
  type: MembershipEventType,
  changes: readonly MembershipChange[],
  at: Date,
): Promise<number> {
  if (!webhooks || changes.length === 0) return 0;
  return webhooks.publishIn(trx, companyId, async (wanted) => {
    if (!wanted.has(type)) return [];
    const contacts: Array<{ id: string; email: string; external_id: string | null }> = await trx("subscribers")
      .where({ company_id: companyId })
      .whereIn("id", [...new Set(changes.map((change) => change.subscriberId))])
      .select("id", "email", "external_id");
    const lists: Array<{ id: string; name: string }> = await trx("lists")
      .where({ company_id: companyId })
      .whereIn("id", [...new Set(changes.map((change) => change.listId))])
      .select("id", "name");
    const contactById = new Map(contacts.map((contact) => [contact.id, contact]));
    const listName = new Map(lists.map((list) => [list.id, list.name]));
    return changes.flatMap(({ subscriberId, listId }) => {
      const contact = contactById.get(subscriberId);
      const name = listName.get(listId);
      if (!contact || name === undefined) return [];
      return [listWebhookEvent(ids.next("evt"), type, at, { subscriberId, email: contact.email, externalId: contact.external_id, listId, listName: name })];
    });
  });
}
