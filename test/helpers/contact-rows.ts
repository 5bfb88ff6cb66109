import type { Knex } from "knex";
import { toDbDate } from "../../adapters/knex/row-codecs.js";

/**
 * Contacts written straight into the tables, for tests of queries over them (segments): the
 * shape of the rows, not the rules of creating contacts.
 */
export interface ContactRow {
  readonly id: string;
  readonly email: string;
  readonly status?: string;
  readonly smsStatus?: string;
  readonly firstName?: string | null;
  readonly lastName?: string | null;
  readonly phone?: string | null;
  readonly emailProvider?: string | null;
  readonly attributes?: Record<string, unknown>;
  readonly createdAt: Date;
  /** Tag names (created in the company when missing). */
  readonly tags?: readonly string[];
  /** List IDs (the lists must exist); `unsubscribed` keeps a former membership. */
  readonly lists?: ReadonlyArray<{ readonly listId: string; readonly unsubscribed?: boolean }>;
  readonly events?: ReadonlyArray<{ readonly name: string; readonly occurredAt: Date; readonly properties?: Readonly<Record<string, unknown>> }>;
  readonly sends?: readonly SendRow[];
}

/** An email sent to the contact: when each activity happened (null: never), as kept on the send. */
export interface SendRow {
  readonly campaignId?: string | null;
  readonly isTest?: boolean;
  readonly sentAt: Date | null;
  readonly deliveredAt?: Date | null;
  /** People's first open and click; `firstOpenedAt`/`firstClickedAt` default to them. */
  readonly firstHumanOpenedAt?: Date | null;
  readonly firstHumanClickedAt?: Date | null;
  readonly firstOpenedAt?: Date | null;
  readonly firstClickedAt?: Date | null;
  readonly complainedAt?: Date | null;
  readonly bouncedAt?: Date | null;
  readonly bounceType?: string | null;
}

export async function insertCompanyRow(knex: Knex, companyId: string): Promise<void> {
  await knex("companies").insert({ id: companyId, name: `Company ${companyId}`, created_at: toDbDate(new Date("2026-01-01T00:00:00.000Z")) });
}

export async function insertListRow(knex: Knex, companyId: string, listId: string, name = listId): Promise<void> {
  const now = toDbDate(new Date("2026-01-01T00:00:00.000Z"));
  await knex("lists").insert({ id: listId, company_id: companyId, name, created_at: now, updated_at: now });
}

let eventSequence = 0;
let sendSequence = 0;

/** One email_sends row of the company (to a contact, or to no contact with `subscriberId` null). */
export async function insertSendRow(knex: Knex, companyId: string, subscriberId: string | null, email: string, send: SendRow): Promise<void> {
  sendSequence += 1;
  const created = toDbDate(send.sentAt ?? new Date("2026-01-01T00:00:00.000Z"));
  await knex("email_sends").insert({
    id: `send_${companyId.slice(-12)}_${sendSequence}`,
    company_id: companyId,
    subscriber_id: subscriberId,
    recipient_email: email,
    email_type: send.campaignId ? "campaign" : "transactional",
    campaign_id: send.campaignId ?? null,
    subject: "Hello",
    sender_email: "news@example.com",
    status: send.bouncedAt ? "bounced" : send.sentAt ? "sent" : "pending",
    mailbox_provider: "other",
    is_test: send.isTest ?? false,
    sent_at: toDbDate(send.sentAt),
    delivered_at: toDbDate(send.deliveredAt ?? null),
    first_opened_at: toDbDate(send.firstOpenedAt ?? send.firstHumanOpenedAt ?? null),
    first_human_opened_at: toDbDate(send.firstHumanOpenedAt ?? null),
    first_clicked_at: toDbDate(send.firstClickedAt ?? send.firstHumanClickedAt ?? null),
    first_human_clicked_at: toDbDate(send.firstHumanClickedAt ?? null),
    complained_at: toDbDate(send.complainedAt ?? null),
    bounced_at: toDbDate(send.bouncedAt ?? null),
    bounce_type: send.bounceType ?? null,
    created_at: created,
    updated_at: created,
  });
}

export async function insertContactRows(knex: Knex, companyId: string, contacts: readonly ContactRow[]): Promise<void> {
  const tagIds = new Map<string, string>(
    (await knex("tags").where({ company_id: companyId }).select("id", "name")).map((row: { id: string; name: string }) => [row.name, row.id]),
  );
  for (const contact of contacts) {
    const created = toDbDate(contact.createdAt);
    await knex("subscribers").insert({
      id: contact.id,
      company_id: companyId,
      email: contact.email,
      first_name: contact.firstName ?? null,
      last_name: contact.lastName ?? null,
      phone: contact.phone ?? null,
      sms_status: contact.smsStatus ?? "not_subscribed",
      status: contact.status ?? "active",
      email_provider: contact.emailProvider ?? null,
      custom_attributes: JSON.stringify(contact.attributes ?? {}),
      created_at: created,
      updated_at: created,
    });
    for (const tag of contact.tags ?? []) {
      let tagId = tagIds.get(tag);
      if (!tagId) {
        // IDs are at most 40 characters: the company's random tail and the tag's place keep them unique.
        tagId = `tag_${companyId.slice(-16)}_${tagIds.size}`;
        tagIds.set(tag, tagId);
        await knex("tags").insert({ id: tagId, company_id: companyId, name: tag, created_at: created, updated_at: created });
      }
      await knex("subscriber_tags").insert({ company_id: companyId, subscriber_id: contact.id, tag_id: tagId, created_at: created });
    }
    for (const membership of contact.lists ?? []) {
      await knex("list_memberships").insert({
        company_id: companyId,
        list_id: membership.listId,
        subscriber_id: contact.id,
        subscribed_at: created,
        unsubscribed_at: membership.unsubscribed ? created : null,
      });
    }
    for (const send of contact.sends ?? []) await insertSendRow(knex, companyId, contact.id, contact.email, send);
    for (const event of contact.events ?? []) {
      eventSequence += 1;
      await knex("custom_events").insert({
        id: `evt_${contact.id}_${eventSequence}`,
        company_id: companyId,
        subscriber_id: contact.id,
        name: event.name,
        properties: JSON.stringify(event.properties ?? {}),
        occurred_at: toDbDate(event.occurredAt),
        received_at: toDbDate(event.occurredAt),
      });
    }
  }
}
