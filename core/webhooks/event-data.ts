import type { TaggedSubscriber } from "../subscribers/model.js";
import type { WebhookEvent, WebhookEventType } from "./model.js";

/** What an email event's payload says about its send (compat-reference §21: `data{email_send_id, ...}`). */
export interface EmailEventSource {
  readonly emailSendId: string;
  readonly messageId: string | null;
  readonly campaignId: string | null;
  readonly sequenceId: string | null;
  readonly transactionalEmailId: string | null;
  readonly subscriberId: string | null;
  readonly externalId: string | null;
  readonly recipient: string;
  readonly subject: string;
  readonly emailType: string;
}

/** An email event: the send's fields, snake_case, and what the event adds (`bounce_type`, `url`, ...). */
export function emailWebhookEvent(
  id: string,
  type: WebhookEventType,
  occurredAt: Date,
  send: EmailEventSource,
  extra: Readonly<Record<string, unknown>> = {},
): WebhookEvent {
  return {
    id,
    type,
    occurredAt,
    data: {
      email_send_id: send.emailSendId,
      message_id: send.messageId,
      campaign_id: send.campaignId,
      sequence_id: send.sequenceId,
      transactional_email_id: send.transactionalEmailId,
      subscriber_id: send.subscriberId,
      external_id: send.externalId,
      recipient: send.recipient,
      subject: send.subject,
      email_type: send.emailType,
      metadata: {},
      ...extra,
    },
  };
}

/** A contact event: the contact as it is after the change, snake_case. */
export function subscriberWebhookEvent(id: string, type: WebhookEventType, occurredAt: Date, contact: TaggedSubscriber): WebhookEvent {
  return {
    id,
    type,
    occurredAt,
    data: {
      subscriber_id: contact.id,
      email: contact.email,
      external_id: contact.externalId,
      first_name: contact.firstName,
      last_name: contact.lastName,
      status: contact.status,
      tags: contact.tags,
      custom_attributes: contact.customAttributes,
      unsubscribed_at: contact.unsubscribedAt?.toISOString() ?? null,
      created_at: contact.createdAt.toISOString(),
      updated_at: contact.updatedAt.toISOString(),
    },
  };
}

/** What a sequence event's payload says about the contact's run through the sequence. */
export interface SequenceEventSource {
  readonly sequenceId: string;
  readonly enrollmentId: string;
  readonly subscriberId: string;
  readonly email: string | null;
  readonly externalId: string | null;
  readonly failedReason: string | null;
  readonly finishedAt: Date | null;
}

/** sequence.finished or sequence.failed: a contact's run through a sequence ended. */
export function sequenceWebhookEvent(id: string, type: "sequence.finished" | "sequence.failed", occurredAt: Date, run: SequenceEventSource): WebhookEvent {
  return {
    id,
    type,
    occurredAt,
    data: {
      sequence_id: run.sequenceId,
      enrollment_id: run.enrollmentId,
      subscriber_id: run.subscriberId,
      email: run.email,
      external_id: run.externalId,
      status: type === "sequence.finished" ? "completed" : "failed",
      failed_reason: run.failedReason,
      finished_at: run.finishedAt?.toISOString() ?? null,
    },
  };
}

/** A contact's membership of a list, as list events describe it. */
export interface MembershipEventSource {
  readonly subscriberId: string;
  readonly email: string;
  readonly externalId: string | null;
  readonly listId: string;
  readonly listName: string;
}

/** subscriber.list_subscribed or subscriber.list_unsubscribed: a contact joined or left a list. */
export function listWebhookEvent(
  id: string,
  type: "subscriber.list_subscribed" | "subscriber.list_unsubscribed",
  occurredAt: Date,
  membership: MembershipEventSource,
): WebhookEvent {
  return {
    id,
    type,
    occurredAt,
    data: {
      subscriber_id: membership.subscriberId,
      email: membership.email,
      external_id: membership.externalId,
      list_id: membership.listId,
      list_name: membership.listName,
    },
  };
}
