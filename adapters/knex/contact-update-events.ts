import type { Knex } from "knex";
import type { IdGenerator } from "../../core/ports/id-generator.js";
import { subscriberWebhookEvent } from "../../core/webhooks/event-data.js";
import type { KnexWebhookPublisher } from "./knex-webhook-publisher.js";
import { withTags } from "./repositories/subscriber-repository.js";

/**
 * Publishes subscriber.updated for each contact a bulk write changed (tags added or removed to
 * many contacts at once), in the write's transaction, with the contact as it now is. The contacts
 * are read only when some webhook of the company wants the event. Resolves to the deliveries
 * queued (for `announce` after the commit).
 */
export async function publishContactUpdates(
  webhooks: KnexWebhookPublisher | undefined,
  trx: Knex.Transaction,
  ids: IdGenerator,
  companyId: string,
  subscriberIds: readonly string[],
  at: Date,
): Promise<number> {
  if (!webhooks || subscriberIds.length === 0) return 0;
  return webhooks.publishIn(trx, companyId, async (wanted) => {
    if (!wanted.has("subscriber.updated")) return [];
    const rows: unknown[] = await trx("subscribers").where({ company_id: companyId }).whereIn("id", subscriberIds);
    const contacts = await withTags(trx, companyId, rows);
    return contacts.map((contact) => subscriberWebhookEvent(ids.next("evt"), "subscriber.updated", at, contact));
  });
}
