import type { ResolveSender } from "../company/resolve-sender.js";
import type { QueueEmailSend } from "../delivery/queue-email-send.js";
import { contactVariables } from "../emails/merge-variables.js";
import type { EmailContent } from "../emails/model.js";
import type { TemplateRepository } from "../emails/ports.js";
import type { RenderEmail } from "../emails/render-email.js";
import { mailboxProviderOf } from "../metrics/mailbox-provider.js";
import type { Clock } from "../ports/clock.js";
import type { Subscriber } from "../subscribers/model.js";
import type { SuppressionRepository } from "../suppressions/ports.js";
import { suppressionBlocks } from "../suppressions/suppression-blocks-send.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { TrackingLinks } from "../tracking/tracking-links.js";
import type { TrackingSettingsRepository } from "../tracking-settings/ports.js";
import { DEFAULT_CONFIRMATION_EMAIL } from "./confirmation-email.js";
import type { ConfirmationTokens } from "./confirmation-tokens.js";
import { RESEND_INTERVAL_MS } from "./model.js";
import type { OptInRepository } from "./ports.js";

/** Whether the confirmation email was queued, and why not when it was not. */
export type ConfirmationEmailOutcome = { readonly queued: true } | { readonly queued: false; readonly reason: string };

export const RECENTLY_SENT = "A confirmation email was sent to this contact less than 10 minutes ago: no other one was queued";
export const suppressedAddress = (email: string, reason: string) =>
  `No confirmation email was queued: ${email} is suppressed (${reason}); it would never be delivered`;

/** The confirmation email is service mail: it must reach a contact that has confirmed nothing yet. */
const CONFIRMATION_SEND = { emailType: "transactional", sendKind: "transactional" } as const;

/**
 * Queues the email asking an unconfirmed contact to confirm: the company's template
 * (`doubleOptInEmailId`) or the built-in one, rendered through the usual pipeline with a signed
 * link to `{BASE_URL}/c/{token}` that expires. A transactional send (it must reach a contact
 * that has confirmed nothing yet), neither opened nor clicked through tracking: the link is
 * the one thing the email is for. At most one per contact every 10 minutes.
 */
export class SendConfirmationEmail {
  private readonly origin: string;

  constructor(
    private readonly optIns: OptInRepository,
    private readonly settings: TrackingSettingsRepository,
    private readonly templates: TemplateRepository,
    private readonly tenancy: TenancyRepository,
    private readonly suppressions: SuppressionRepository,
    private readonly tokens: ConfirmationTokens,
    private readonly resolveSender: ResolveSender,
    private readonly render: RenderEmail,
    private readonly tracking: TrackingLinks,
    private readonly queue: QueueEmailSend,
    private readonly clock: Clock,
    baseUrl: string,
  ) {
    this.origin = baseUrl.replace(/\/+$/, "");
  }

  execute = async (contact: Subscriber): Promise<ConfirmationEmailOutcome> => {
    const { companyId } = contact;
    const sender = await this.resolveSender.execute(companyId);
    if (sender._tag === "Left") return { queued: false, reason: `No confirmation email was queued: ${sender.left.message}` };
    const company = await this.tenancy.findCompany(companyId);
    if (!company) return { queued: false, reason: "No confirmation email was queued: the company does not exist" };
    // Delivery would suppress it (a bounce, a complaint, a block): `emailQueued` must not promise an email that cannot arrive.
    const suppression = await this.suppressions.find(companyId, contact.email);
    if (suppression && suppressionBlocks(suppression.reason, CONFIRMATION_SEND))
      return { queued: false, reason: suppressedAddress(contact.email, suppression.reason) };

    const now = this.clock.now();
    const since = new Date(now.getTime() - RESEND_INTERVAL_MS);
    const previous = (await this.optIns.find(companyId, contact.id))?.lastEmailAt ?? null;
    if (previous && previous > since) return { queued: false, reason: RECENTLY_SENT };

    const emailSendId = this.queue.newSendId();
    const links = this.tracking.forSend(emailSendId);
    const confirmUrl = `${this.origin}/c/${this.tokens.sign({ companyId, subscriberId: contact.id }, now)}`;
    const rendered = await this.render.execute(companyId, {
      content: await this.contentFor(companyId),
      variables: { ...contactVariables(contact), companyName: company.name, confirmUrl },
      links: { unsubscribeUrl: links.unsubscribeUrl },
    });
    if (rendered._tag === "Left") return { queued: false, reason: `No confirmation email was queued: ${rendered.left.message}` };

    // Claimed (one statement: concurrent requests send once) only once the email is ready, right
    // before it is queued, so a crash between the two is as unlikely as it can be.
    if (!(await this.optIns.claimEmail(companyId, contact.id, now, since))) return { queued: false, reason: RECENTLY_SENT };
    const { from, replyTo } = sender.right;
    try {
      await this.queue.execute({
        id: emailSendId,
        companyId,
        subscriberId: contact.id,
        recipient: contact.email,
        ...CONFIRMATION_SEND,
        subject: rendered.right.subject,
        html: rendered.right.html,
        text: rendered.right.text,
        sender: { email: from.email, name: from.name },
        replyTo: replyTo?.email ?? null,
        unsubscribeUrl: links.unsubscribeUrl,
        mailboxProvider: mailboxProviderOf(contact.email),
        openTracking: false,
        clickTracking: false,
      });
    } catch (error) {
      await this.optIns.releaseEmail(companyId, contact.id, previous);
      throw error;
    }
    return { queued: true };
  };

  /** The company's chosen template while it exists, else the built-in email. */
  private async contentFor(companyId: string): Promise<EmailContent> {
    const { doubleOptInEmailId } = await this.settings.find(companyId);
    const template = doubleOptInEmailId ? await this.templates.find(companyId, doubleOptInEmailId) : null;
    return template ?? DEFAULT_CONFIRMATION_EMAIL;
  }
}
