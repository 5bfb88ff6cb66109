/**
 * The rows of the exported files, one JSON object per line (README, Data exports). Timestamps are
 * ISO 8601 UTC strings with milliseconds; absent values are null, never missing keys.
 */

/** `email_events`: one event of one email send, with the send's recipient and origin. */
export interface EmailEventRecord {
  readonly id: string;
  /** send, delivery, bounce, complaint, open, click, unsubscribe, delivery_delay, transport_failure, reply. */
  readonly type: string;
  /** When it happened (the provider's time for delivery events). */
  readonly occurredAt: string;
  /** When the service recorded it: the export's order and its `date=` folder. */
  readonly recordedAt: string;
  readonly emailSendId: string;
  readonly subscriberId: string | null;
  readonly recipientEmail: string;
  /** campaign, transactional or sequence. */
  readonly emailType: string;
  readonly subject: string;
  readonly campaignId: string | null;
  readonly transactionalEmailId: string | null;
  readonly automationId: string | null;
  readonly templateId: string | null;
  readonly isTest: boolean;
  readonly bounceType: string | null;
  readonly bounceSubType: string | null;
  /** The link of a click. */
  readonly url: string | null;
  /** Opens and clicks by scanners, previews and prefetchers. */
  readonly machine: boolean;
  readonly machineReason: string | null;
  readonly userAgent: string | null;
  readonly ip: string | null;
}

/** `custom_events`: an event a caller recorded for a subscriber. */
export interface CustomEventRecord {
  readonly id: string;
  readonly name: string;
  readonly subscriberId: string;
  readonly email: string;
  readonly properties: Readonly<Record<string, unknown>>;
  readonly occurredAt: string;
  readonly recordedAt: string;
  /** The caller's own event ID (deduplication), when given. */
  readonly eventId: string | null;
  /** api, account or import. */
  readonly source: string;
  readonly historical: boolean;
}

/** `subscribers`: one contact as it is when the snapshot is taken. */
export interface SubscriberRecord {
  readonly id: string;
  readonly email: string;
  readonly externalId: string | null;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly phone: string | null;
  readonly status: string;
  readonly smsStatus: string;
  readonly emailProvider: string | null;
  readonly timezone: string | null;
  readonly customAttributes: Readonly<Record<string, unknown>>;
  /** Tag names, sorted. */
  readonly tags: readonly string[];
  /** Lists the contact is subscribed to (unsubscribed memberships left out), sorted. */
  readonly listIds: readonly string[];
  readonly unsubscribedAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}
