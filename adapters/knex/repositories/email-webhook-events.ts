import type { Knex } from "knex";
import { emailWebhookEvent } from "../../../core/webhooks/event-data.js";
import type { WebhookEventType } from "../../../core/webhooks/model.js";
import type { KnexWebhookPublisher } from "../knex-webhook-publisher.js";

/** An email event as its repository records it, to be published as `type`. */
export interface EmailEventToPublish {
  /** The email_events row's ID: the webhook event's stable ID. */
  readonly id: string;
  readonly type: WebhookEventType;
  readonly at: Date;
  /** What the event adds to the send's fields (`bounce_type`, `url`, ...). */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * Publishes an email event of a send inside the transaction that records it. The send is read
 * only when a webhook of the company wants the event; test sends publish nothing.
 */
export async function publishEmailEvent(
  publisher: KnexWebhookPublisher | undefined,
  trx: Knex.Transaction,
  companyId: string,
  sendId: string,
  event: EmailEventToPublish,
): Promise<number> {
  if (!publisher) return 0;
  return publisher.publishIn(trx, companyId, async (wanted) => {
    if (!wanted.has(event.type)) return [];
    const send = await trx("email_sends")
      .leftJoin("subscribers", "subscribers.id", "email_sends.subscriber_id")
      .where({ "email_sends.company_id": companyId, "email_sends.id": sendId })
      .first(
        "email_sends.message_id",
        "email_sends.campaign_id",
        "email_sends.automation_id",
        "email_sends.transactional_email_id",
        "email_sends.subscriber_id",
        "email_sends.recipient_email",
        "email_sends.subject",
        "email_sends.email_type",
        "email_sends.is_test",
        "subscribers.external_id",
      );
    if (!send || send.is_test === true || send.is_test === 1) return [];
    return [
      emailWebhookEvent(
        event.id,
        event.type,
        event.at,
        {
          emailSendId: sendId,
          messageId: send.message_id ?? null,
          campaignId: send.campaign_id ?? null,
          sequenceId: send.automation_id ?? null,
          transactionalEmailId: send.transactional_email_id ?? null,
          subscriberId: send.subscriber_id ?? null,
          externalId: send.external_id ?? null,
          recipient: send.recipient_email,
          subject: send.subject,
          emailType: send.email_type,
        },
        event.extra,
      ),
    ];
  });
}
