import type { Either } from "fp-ts/lib/Either.js";
import type { JobRequest } from "../ports/job-queue.js";
import type { DkimSigningKey } from "./mail-transport.js";
import type { DeliveryEvent, EmailSend, EmailSendWithoutBodies, EmailType, MailAddress, MailboxProvider, SendBodies, SendKind, SendPayload } from "./model.js";
import { token } from "../shared/token.js";

/** A send as queued: rendered content and everything the send job needs. */
export interface NewEmailSend {
  readonly id: string;
  readonly companyId: string;
  readonly subscriberId?: string | null | undefined;
  readonly recipientEmail: string;
  readonly emailType: EmailType;
  readonly sendKind?: SendKind | null | undefined;
  readonly transactionalEmailId?: string | null | undefined;
  readonly templateId?: string | null | undefined;
  readonly campaignId?: string | null | undefined;
  readonly automationId?: string | null | undefined;
  readonly automationNodeId?: string | null | undefined;
  readonly subject: string;
  readonly sender: MailAddress;
  readonly replyTo?: string | null | undefined;
  readonly html: string | null;
  readonly text: string | null;
  readonly mailboxProvider: MailboxProvider;
  readonly isTest: boolean;
  readonly openTracking: boolean;
  readonly clickTracking: boolean;
  readonly payload: SendPayload;
  readonly createdAt: Date;
}

/** An email_events row written by delivery itself (send, transport_failure). */
export interface SendOutcomeEvent {
  readonly id: string;
  readonly at: Date;
  readonly details?: Readonly<Record<string, unknown>> | undefined;
}

/** The job that delivers the given sends of one company. */
export type DeliveryJob = (companyId: string, sendIds: readonly string[]) => JobRequest;

export interface EmailSendRepository {
  /**
   * Stores the pending send and queues its delivery in one transaction (neither without the
   * other). Sends of a company stored together may share one `delivery` job.
   */
  create(send: NewEmailSend, delivery: DeliveryJob): Promise<EmailSend>;
  get(companyId: string, sendId: string): Promise<EmailSend | null>;
  /**
   * The sends among `sendIds` that exist (a delivery job's batch), in no particular order, without
   * their bodies: a job reads each body (`bodiesOf`) as it hands the send over, so it holds only
   * the bodies in flight.
   */
  getMany(companyId: string, sendIds: readonly string[]): Promise<EmailSendWithoutBodies[]>;
  /** A send's HTML and text (both null when it has none). */
  bodiesOf(companyId: string, sendId: string): Promise<SendBodies>;
  /** By our Message-ID, with or without its angle brackets. */
  findByMessageId(companyId: string, messageId: string): Promise<EmailSend | null>;
  /** pending -> sent, with a `send` event, in one transaction; false when the send was not pending. */
  markSent(companyId: string, sendId: string, messageId: string, event: SendOutcomeEvent): Promise<boolean>;
  /** pending -> failed, with a `transport_failure` event. */
  markFailed(companyId: string, sendId: string, reason: string, event: SendOutcomeEvent): Promise<boolean>;
  /** pending -> suppressed. */
  markSuppressed(companyId: string, sendId: string, reason: string, at: Date): Promise<boolean>;
  /**
   * Stores a provider's event once (by its provider event ID) and updates the send: delivered_at,
   * the latest bounce, complained_at and the status. False when the event was already stored.
   */
  recordDeliveryEvent(companyId: string, sendId: string, eventId: string, event: DeliveryEvent, receivedAt: Date): Promise<boolean>;
}
export const EmailSendRepository = token<EmailSendRepository>("lifecycle.EmailSendRepository");

/** The DKIM key of a company's verified sending domain, opened for signing. */
export interface DkimKeys {
  find(companyId: string, domain: string): Promise<DkimSigningKey | null>;
}
export const DkimKeys = token<DkimKeys>("lifecycle.DkimKeys");

/** The per-company secret that signs generic delivery webhooks, stored sealed. */
export interface DeliveryWebhookSecrets {
  /** The sealed secret, or null when the company has none yet. */
  findSealed(companyId: string): Promise<string | null>;
  /** Replaces the company's secret. */
  saveSealed(companyId: string, sealed: string, at: Date): Promise<void>;
}
export const DeliveryWebhookSecrets = token<DeliveryWebhookSecrets>("lifecycle.DeliveryWebhookSecrets");

/** The SNS topic each company's SES events are pinned to. */
export interface SesTopicPins {
  /** Pins `topicArn` unless the company has a topic already; returns the topic in force. */
  pinIfNone(companyId: string, topicArn: string, at: Date): Promise<string>;
  /** Forgets the company's topic (the next one to confirm is pinned); returns the one removed. */
  unpin(companyId: string): Promise<string | null>;
}
export const SesTopicPins = token<SesTopicPins>("lifecycle.SesTopicPins");

/** An Amazon SNS message as posted to the SES webhook, once its signature is checked. */
export interface SnsMessage {
  readonly Type: string;
  readonly MessageId: string;
  readonly TopicArn: string;
  readonly Message: string;
  readonly SubscribeURL?: string | undefined;
}

/** Checks an SNS message's signature against the certificate SNS signed it with. */
export interface SnsVerifier {
  /** The message when its signature holds; otherwise why not. */
  verify(body: Readonly<Record<string, unknown>>): Promise<Either<string, SnsMessage>>;
}
export const SnsVerifier = token<SnsVerifier>("lifecycle.SnsVerifier");

/** Confirms SNS subscriptions by visiting the SubscribeURL SNS sent. */
export interface SnsSubscriptions {
  /** True when SNS accepted the confirmation. Only called with an Amazon URL (see amazon-url.ts). */
  confirm(subscribeUrl: string): Promise<boolean>;
}
export const SnsSubscriptions = token<SnsSubscriptions>("lifecycle.SnsSubscriptions");
