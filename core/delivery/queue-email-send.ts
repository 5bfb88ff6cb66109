import * as t from "io-ts";
import { withEarlierShape } from "../jobs/earlier-payload.js";
import { defineJob } from "../jobs/job-definition.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import { ok, type Result } from "../shared/result.js";
import type { EmailSend, EmailType, MailAddress, MailboxProvider, SendKind, SendPayload } from "./model.js";
import type { DeliveryJob, EmailSendRepository } from "./ports.js";

/** The durable job that hands sends to the mail transport (payload `emailSendIds`). */
export const DELIVER_EMAIL_JOB = "email.deliver";
/** Attempts (1 s, 2 s, 4 s, 8 s apart, with the queue's back-off) before the send is failed. */
export const DELIVER_ATTEMPTS = 5;

/** `emailSendIds`; jobs queued before batching carry one `emailSendId`, read as a batch of one. */
const DeliveryPayload = withEarlierShape(t.type({ emailSendIds: t.array(t.string) }), t.type({ emailSendId: t.string }), ({ emailSendId }) => ({
  emailSendIds: [emailSendId],
}));

export const DeliverEmailsJob = defineJob({ type: DELIVER_EMAIL_JOB, company: "required", payload: DeliveryPayload, maxAttempts: DELIVER_ATTEMPTS });

/** The job delivering sends of one company that were queued together (a claim and a completion for all of them). */
export const deliverEmailsJob: DeliveryJob = (companyId, sendIds) => DeliverEmailsJob.request({ emailSendIds: [...sendIds] }, { companyId });

export interface QueueEmailSendInput {
  /** From `newSendId()`, when the content was rendered with the ID (tracking links embed it). */
  readonly id?: string | undefined;
  readonly companyId: string;
  readonly subscriberId?: string | null | undefined;
  readonly recipient: string;
  readonly emailType: EmailType;
  readonly sendKind?: SendKind | null | undefined;
  readonly transactionalEmailId?: string | null | undefined;
  readonly templateId?: string | null | undefined;
  readonly campaignId?: string | null | undefined;
  readonly automationId?: string | null | undefined;
  readonly automationNodeId?: string | null | undefined;
  readonly subject: string;
  readonly html: string | null;
  readonly text: string | null;
  /** The From address; its domain's DKIM key (when verified) signs the message at delivery. */
  readonly sender: MailAddress;
  readonly replyTo?: string | null | undefined;
  readonly unsubscribeUrl?: string | null | undefined;
  readonly mailboxProvider?: MailboxProvider | undefined;
  readonly isTest?: boolean | undefined;
  readonly openTracking?: boolean | undefined;
  readonly clickTracking?: boolean | undefined;
  readonly variables?: SendPayload["variables"];
  readonly attachments?: SendPayload["attachments"];
  readonly copyOf?: SendPayload["copyOf"];
}

/**
 * Records a pending send with its rendered content and queues its delivery, atomically. Callers that embed
 * the send's ID in the content (tracking links, unsubscribe tokens) take one from `newSendId()`
 * first and pass it in.
 */
export class QueueEmailSend {
  constructor(
    private readonly sends: EmailSendRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  newSendId = (): string => this.ids.next("send");

  execute = async (input: QueueEmailSendInput): Promise<Result<EmailSend>> => {
    const payload: SendPayload = {
      ...(input.variables ? { variables: input.variables } : {}),
      ...(input.attachments && input.attachments.length > 0 ? { attachments: input.attachments } : {}),
      ...(input.unsubscribeUrl ? { unsubscribeUrl: input.unsubscribeUrl } : {}),
      ...(input.copyOf ? { copyOf: input.copyOf } : {}),
    };
    const id = input.id ?? this.newSendId();
    const send = await this.sends.create(
      {
        id,
        companyId: input.companyId,
        subscriberId: input.subscriberId ?? null,
        recipientEmail: input.recipient.trim().toLowerCase(),
        emailType: input.emailType,
        sendKind: input.sendKind ?? null,
        transactionalEmailId: input.transactionalEmailId ?? null,
        templateId: input.templateId ?? null,
        campaignId: input.campaignId ?? null,
        automationId: input.automationId ?? null,
        automationNodeId: input.automationNodeId ?? null,
        subject: input.subject,
        sender: input.sender,
        replyTo: input.replyTo ?? null,
        html: input.html,
        text: input.text,
        mailboxProvider: input.mailboxProvider ?? "other",
        isTest: input.isTest ?? false,
        openTracking: input.openTracking ?? true,
        clickTracking: input.clickTracking ?? true,
        payload,
        createdAt: this.clock.now(),
      },
      deliverEmailsJob,
    );
    return ok(send);
  };
}
