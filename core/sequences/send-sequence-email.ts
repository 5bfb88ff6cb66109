import type { ProfileRepository } from "../company/ports.js";
import type { ResolveSender } from "../company/resolve-sender.js";
import type { EmailSendRepository } from "../delivery/ports.js";
import type { QueueEmailSend } from "../delivery/queue-email-send.js";
import type { EmailBlock } from "../emails/blocks.js";
import { contactVariables } from "../emails/merge-variables.js";
import type { EmailBody } from "../emails/model.js";
import type { RenderEmail } from "../emails/render-email.js";
import { mailboxProviderOf } from "../metrics/mailbox-provider.js";
import { FRESH_READS, type Reads } from "../shared/batch-reads.js";
import { fail, ok, type Result } from "../shared/result.js";
import { badRequest } from "../shared/errors.js";
import type { Subscriber } from "../subscribers/model.js";
import type { TrackingLinks } from "../tracking/tracking-links.js";
import type { TrackingSettingsRepository } from "../tracking-settings/ports.js";
import type { Enrollment } from "./enrollment.js";
import type { Sequence, SequenceNode } from "./model.js";
import { requestedIdentity } from "./sequence-identity.js";

/**
 * The send of one email step of one enrollment. Its ID is made from the enrollment and the
 * step, so a step run again (a retried job, a worker killed before the step was recorded) finds
 * the send it queued the first time and queues no second one.
 */
export const sequenceSendId = (enrollment: Enrollment): string => `send_${enrollment.id}_${enrollment.stepCount + 1}`;

/** What `{{event.x}}`, webhook answers (`{{resultKey.x}}`) and the contact's fields fill in a sequence's content. */
export const sequenceVariables = (contact: Subscriber, enrollment: Enrollment): Record<string, unknown> => ({
  ...(enrollment.context.results ?? {}),
  ...contactVariables(contact),
  event: { ...(enrollment.context.event?.properties ?? {}) },
});

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);

/**
 * Runs an `action_email` node: renders the node's content for the contact through the usual
 * renderer and queues it through the email pipeline as a `sequence` send (its metrics count
 * under emailType=sequence). Delivery applies unsubscribes and suppressions as for marketing
 * mail; `isTransactional` does not make a sequence email service mail on this server.
 */
export class SendSequenceEmail {
  constructor(
    private readonly sends: EmailSendRepository,
    private readonly resolveSender: ResolveSender,
    private readonly profiles: ProfileRepository,
    private readonly trackingSettings: TrackingSettingsRepository,
    private readonly render: RenderEmail,
    private readonly tracking: TrackingLinks,
    private readonly queue: QueueEmailSend,
  ) {}

  /**
   * The send's ID, queued now or by an earlier run of the same step; or why it cannot be sent.
   * `reads`: the engine's batch shares one read of the sender, tracking settings, theme and footer.
   */
  execute = async (
    sequence: Sequence,
    node: SequenceNode,
    enrollment: Enrollment,
    contact: Subscriber,
    reads: Reads = FRESH_READS,
  ): Promise<Result<string>> => {
    const emailSendId = sequenceSendId(enrollment);
    if (await this.sends.get(enrollment.companyId, emailSendId)) return ok(emailSendId);
    const config = node.config;
    const companyId = sequence.companyId;

    const identity = await reads.once(`identity:${companyId}:${sequence.id}:${node.id}`, () => requestedIdentity(this.profiles, sequence, config));
    const from = identity.from;
    const sender = await reads.once(`sender:${companyId}:${from?.email ?? ""}:${from?.name ?? ""}`, () => this.resolveSender.execute(companyId, from));
    if (sender._tag === "Left") return sender;
    const settings = await reads.once(`tracking:${companyId}`, () => this.trackingSettings.find(companyId));
    const links = this.tracking.forSend(emailSendId);
    const body: EmailBody = typeof config.html === "string" ? { html: config.html } : { blocks: config.blocks as readonly EmailBlock[] };
    const rendered = await this.render.execute(
      companyId,
      {
        content: { subject: String(config.subject), previewText: text(config.previewText), body },
        variables: sequenceVariables(contact, enrollment),
        links: {
          unsubscribeUrl: links.unsubscribeUrl,
          ...(settings.clickTrackingEnabled ? { rewriteLink: links.rewriteLink } : {}),
          ...(settings.openTrackingEnabled ? { openPixelUrl: links.openPixelUrl } : {}),
        },
      },
      reads,
    );
    if (rendered._tag === "Left") return fail(badRequest(`the email could not be rendered: ${rendered.left.message}`));
    const replyTo = identity.replyTo ?? sender.right.replyTo?.email ?? null;
    const queued = await this.queue.execute({
      id: emailSendId,
      companyId: sequence.companyId,
      subscriberId: contact.id,
      recipient: contact.email,
      emailType: "sequence",
      automationId: sequence.id,
      automationNodeId: node.id,
      subject: rendered.right.subject,
      html: rendered.right.html,
      text: rendered.right.text,
      sender: { email: sender.right.from.email, name: sender.right.from.name },
      replyTo,
      unsubscribeUrl: links.unsubscribeUrl,
      mailboxProvider: mailboxProviderOf(contact.email),
      openTracking: settings.openTrackingEnabled,
      clickTracking: settings.clickTrackingEnabled,
    });
    return queued._tag === "Left" ? queued : ok(emailSendId);
  };
}
