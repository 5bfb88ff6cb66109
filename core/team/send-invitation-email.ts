import type { ResolveSender } from "../company/resolve-sender.js";
import type { QueueEmailSend } from "../delivery/queue-email-send.js";
import type { RenderEmail } from "../emails/render-email.js";
import { mailboxProviderOf } from "../metrics/mailbox-provider.js";
import type { SuppressionRepository } from "../suppressions/ports.js";
import { suppressionBlocks } from "../suppressions/suppression-blocks-send.js";
import type { Company, TeamMember } from "../tenancy/model.js";
import type { TrackingLinks } from "../tracking/tracking-links.js";
import { INVITATION_EMAIL } from "./invitation-email.js";
import type { Invitation } from "./model.js";

/** Whether the invitation email was queued, and why not when it was not. */
export type InvitationEmailOutcome = { readonly queued: true; readonly emailSendId: string } | { readonly queued: false; readonly reason: string };

/** Service mail to one person, like the double opt-in confirmation: never held back as marketing. */
const INVITATION_SEND = { emailType: "transactional", sendKind: "transactional" } as const;

const notQueued = (reason: string): InvitationEmailOutcome => ({ queued: false, reason: `No invitation email was queued: ${reason}` });

/**
 * Queues the invitation email through the usual pipeline (the company's sender and theme, the
 * durable delivery job), from the company's sender. Neither pixel-tracked nor link-rewritten:
 * the link carries the invitation's secret token and is the one thing the email is for.
 */
export class SendInvitationEmail {
  constructor(
    private readonly suppressions: SuppressionRepository,
    private readonly resolveSender: ResolveSender,
    private readonly render: RenderEmail,
    private readonly tracking: TrackingLinks,
    private readonly queue: QueueEmailSend,
  ) {}

  execute = async (invitation: Invitation, company: Company, inviter: TeamMember | null, inviteUrl: string): Promise<InvitationEmailOutcome> => {
    const { companyId, email } = invitation;
    const sender = await this.resolveSender.execute(companyId);
    if (sender._tag === "Left") return notQueued(sender.left.message);
    const suppression = await this.suppressions.find(companyId, email);
    if (suppression && suppressionBlocks(suppression.reason, INVITATION_SEND))
      return notQueued(`${email} is suppressed (${suppression.reason}); it would never be delivered`);

    const emailSendId = this.queue.newSendId();
    const links = this.tracking.forSend(emailSendId);
    const rendered = await this.render.execute(companyId, {
      content: INVITATION_EMAIL,
      variables: {
        companyName: company.name,
        inviterName: inviter?.name ?? inviter?.email ?? `The ${company.name} team`,
        role: invitation.role,
        inviteUrl,
        expiresOn: invitation.expiresAt.toUTCString(),
        email,
      },
      links: { unsubscribeUrl: links.unsubscribeUrl },
    });
    if (rendered._tag === "Left") return notQueued(rendered.left.message);
    const { from, replyTo } = sender.right;
    await this.queue.execute({
      id: emailSendId,
      companyId,
      subscriberId: null,
      recipient: email,
      ...INVITATION_SEND,
      subject: rendered.right.subject,
      html: rendered.right.html,
      text: rendered.right.text,
      sender: { email: from.email, name: from.name },
      // Replies reach the person who invited, when known.
      replyTo: inviter?.email ?? replyTo?.email ?? null,
      unsubscribeUrl: links.unsubscribeUrl,
      mailboxProvider: mailboxProviderOf(email),
      openTracking: false,
      clickTracking: false,
    });
    return { queued: true, emailSendId };
  };
}
