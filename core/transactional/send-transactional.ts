import type { ResolveSender } from "../company/resolve-sender.js";
import type { Attachment } from "../delivery/model.js";
import type { QueueEmailSend } from "../delivery/queue-email-send.js";
import { contactVariables } from "../emails/merge-variables.js";
import type { EmailContent } from "../emails/model.js";
import { DEFAULT_LOCALE, localizedContent, type TemplateLocalization } from "../emails/localization.js";
import type { TemplateLocalizationRepository, TemplateRepository } from "../emails/ports.js";
import type { RenderEmail } from "../emails/render-email.js";
import type { UnresolvedMergeTag } from "../emails/email-renderer.js";
import { mailboxProviderOf } from "../metrics/mailbox-provider.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { TrackingLinks } from "../tracking/tracking-links.js";
import type { TrackingSettingsRepository } from "../tracking-settings/ports.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { parseMailbox } from "./mailbox-text.js";
import { sendsDisabled, TRANSACTIONAL_NOT_FOUND, type TransactionalEmail } from "./model.js";
import { recipientLocale } from "./recipient-locale.js";
import type { TransactionalEmailRepository } from "./ports.js";
import { recipientsOf, type SendTransactionalCommand } from "./send-command.js";
import { contentOf } from "./transactional-content.js";

export const NO_RECIPIENT = badRequest("to is required: one address or a list of up to 50");
export const NO_CONTENT = badRequest("Provide slug (or templateId) of a saved transactional email, or subject and body for direct content");
export const BOTH_CONTENTS = badRequest("Provide either slug (or templateId) or subject and body, not both");
export const PREVIEW_DIRECT_ONLY = badRequest("preview applies to direct content only (subject and body)");
export const MARKETING_ONE_RECIPIENT = badRequest("emailType marketing takes exactly one to address and no cc or bcc");
export const EXTERNAL_ID_ONE_RECIPIENT = badRequest("subscriberExternalId applies to a single recipient only");
export const INVALID_REPLY_TO = badRequest("replyTo must be an email address or 'Name <email>'");
export const attachmentProblem = (index: number, message: string) => badRequest(`attachments[${index}]: ${message}`);

/** One queued email send, per recipient. */
export interface QueuedSend {
  readonly emailSendId: string;
  readonly to: string;
  readonly role: "to" | "cc" | "bcc";
  /** The localized variant sent (`es`, `pt-BR`), or `default` for the email's own content. */
  readonly locale: string;
}

export interface MissingVariableDiagnostic {
  readonly name: string;
  readonly lookupName: string;
  readonly message: string;
  readonly suggestions: string[];
  readonly usedIn: UnresolvedMergeTag["usedIn"];
}

export type SentTransactional = {
  readonly emailSendId: string;
  /** The product's legacy job handle: the first send's ID. */
  readonly jobId: string;
  readonly to: string[];
  readonly cc?: string[];
  readonly bcc?: string[];
  readonly emailType: "transactional" | "marketing";
  readonly transactional?: { readonly id: string; readonly name: string; readonly slug: string };
  readonly emailSends: QueuedSend[];
  readonly diagnostics?: {
    readonly status: "warning";
    readonly message: string;
    readonly missingRequiredVariables: MissingVariableDiagnostic[];
    readonly unusedVariables: Array<{ name: string; message: string; suggestions: string[] }>;
  };
};

const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}$/;

function attachmentsOf(command: SendTransactionalCommand): Result<Attachment[]> {
  const attachments: Attachment[] = [];
  for (const [index, attachment] of (command.attachments ?? []).entries()) {
    if (attachment.path !== undefined) return fail(attachmentProblem(index, "path (a URL) is not supported: send the file as base64 content"));
    if (attachment.content === undefined) return fail(attachmentProblem(index, "content (base64) is required"));
    if (!BASE64.test(attachment.content)) return fail(attachmentProblem(index, "content must be base64"));
    attachments.push({
      filename: attachment.filename,
      contentBase64: attachment.content.replace(/\s+/g, ""),
      ...(attachment.contentType ? { contentType: attachment.contentType } : {}),
      ...(attachment.contentId ? { contentId: attachment.contentId } : {}),
    });
  }
  return ok(attachments);
}

/**
 * POST /transactional/send: one email send per recipient (spec: one request per recipient; the
 * product's shared to/cc/bcc message becomes one send each, cc and bcc sends pointing at the
 * first). Each is rendered for its recipient (contact fields when the address is a contact,
 * then the request's variables) with its own tracking links (open pixel and click rewriting as
 * the request's trackingSettings say, else as the company's tracking settings say), and queued.
 * A saved email is sent in the recipient's locale (the request's `locale`, else the contact's
 * `locale` attribute): that locale's variant, else its language's, else the default content.
 */
export class SendTransactional {
  constructor(
    private readonly emails: TransactionalEmailRepository,
    private readonly templates: TemplateRepository,
    private readonly localizations: TemplateLocalizationRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly resolveSender: ResolveSender,
    private readonly render: RenderEmail,
    private readonly tracking: TrackingLinks,
    private readonly queue: QueueEmailSend,
    private readonly trackingSettings: TrackingSettingsRepository,
  ) {}

  execute = async (actor: Actor, command: SendTransactionalCommand): Promise<Result<SentTransactional>> => {
    const recipients = recipientsOf(command);
    if (!recipients.some((recipient) => recipient.role === "to")) return fail(NO_RECIPIENT);
    const emailType = command.emailType ?? "transactional";
    if (emailType === "marketing" && recipients.length !== 1) return fail(MARKETING_ONE_RECIPIENT);
    if (command.subscriberExternalId !== undefined && recipients.length !== 1) return fail(EXTERNAL_ID_ONE_RECIPIENT);
    const attachments = attachmentsOf(command);
    if (attachments._tag === "Left") return attachments;
    const replyTo = command.replyTo !== undefined ? parseMailbox(command.replyTo) : undefined;
    if (replyTo === null) return fail(INVALID_REPLY_TO);

    const source = await this.contentFor(actor.companyId, command);
    if (source._tag === "Left") return source;
    const { content, saved } = source.right;
    const variants: readonly TemplateLocalization[] = saved ? await this.localizations.list(actor.companyId, saved.templateId) : [];

    const requestedFrom = command.from !== undefined ? parseMailbox(command.from) : null;
    const sender = await this.resolveSender.execute(actor.companyId, requestedFrom ?? undefined);
    if (sender._tag === "Left") return sender;
    const { from } = sender.right;
    const defaultReplyTo = sender.right.replyTo?.email ?? null;

    // The company's tracking settings, unless the request chose for this send.
    const settings = await this.trackingSettings.find(actor.companyId);
    const openTracking = command.trackingSettings?.openTracking ?? settings.openTrackingEnabled;
    const clickTracking = command.trackingSettings?.clickTracking ?? settings.clickTrackingEnabled;

    const supplied = Object.keys(command.variables ?? {});
    const emailSends: QueuedSend[] = [];
    let diagnostics: SentTransactional["diagnostics"];
    for (const recipient of recipients) {
      const contact =
        command.subscriberExternalId !== undefined
          ? await this.subscribers.findByExternalId(actor.companyId, command.subscriberExternalId)
          : await this.subscribers.findByEmail(actor.companyId, recipient.email);
      const variables = { ...contactVariables(contact ?? { email: recipient.email }), ...(command.variables ?? {}) };
      const localized = saved ? localizedContent(content, variants, recipientLocale(command.locale, contact)) : { content, locale: DEFAULT_LOCALE };
      const emailSendId = this.queue.newSendId();
      const links = this.tracking.forSend(emailSendId);
      const rendered = await this.render.execute(actor.companyId, {
        content: localized.content,
        variables,
        suppliedVariables: supplied,
        links: {
          unsubscribeUrl: links.unsubscribeUrl,
          ...(clickTracking ? { rewriteLink: links.rewriteLink } : {}),
          ...(openTracking ? { openPixelUrl: links.openPixelUrl } : {}),
        },
      });
      if (rendered._tag === "Left") return rendered;
      // The first recipient whose email left merge tags empty (or variables unused) is the example reported.
      diagnostics ??= diagnosticsOf(rendered.right.unresolvedMergeTags, rendered.right.unusedVariables);
      const primary = emailSends[0];
      const queued = await this.queue.execute({
        id: emailSendId,
        companyId: actor.companyId,
        subscriberId: contact?.id ?? null,
        recipient: recipient.email,
        emailType: "transactional",
        sendKind: emailType,
        transactionalEmailId: saved?.id ?? null,
        templateId: saved?.templateId ?? null,
        subject: rendered.right.subject,
        html: rendered.right.html,
        text: rendered.right.text,
        sender: { email: from.email, name: from.name },
        replyTo: replyTo?.email ?? defaultReplyTo,
        unsubscribeUrl: links.unsubscribeUrl,
        mailboxProvider: mailboxProviderOf(recipient.email),
        openTracking,
        clickTracking,
        ...(command.variables ? { variables: command.variables } : {}),
        attachments: attachments.right,
        ...(primary && recipient.role !== "to" ? { copyOf: { emailSendId: primary.emailSendId, role: recipient.role } } : {}),
      });
      if (queued._tag === "Left") return queued;
      emailSends.push({ emailSendId: queued.right.id, to: recipient.email, role: recipient.role, locale: localized.locale });
    }

    const first = emailSends[0]!;
    const byRole = (role: QueuedSend["role"]) => emailSends.filter((send) => send.role === role).map((send) => send.to);
    return ok({
      emailSendId: first.emailSendId,
      jobId: first.emailSendId,
      to: byRole("to"),
      ...(byRole("cc").length > 0 ? { cc: byRole("cc") } : {}),
      ...(byRole("bcc").length > 0 ? { bcc: byRole("bcc") } : {}),
      emailType,
      ...(saved ? { transactional: { id: saved.id, name: saved.name, slug: saved.slug } } : {}),
      emailSends,
      ...(diagnostics ? { diagnostics } : {}),
    });
  };

  private async contentFor(companyId: string, command: SendTransactionalCommand): Promise<Result<{ content: EmailContent; saved: TransactionalEmail | null }>> {
    const slug = command.slug ?? command.templateId;
    const body = command.body ?? command.html;
    const direct = command.subject !== undefined || body !== undefined;
    if (slug !== undefined && direct) return fail(BOTH_CONTENTS);
    if (slug !== undefined) {
      if (command.preview !== undefined) return fail(PREVIEW_DIRECT_ONLY);
      const saved = await this.emails.findBySlug(companyId, slug);
      if (!saved) return fail(TRANSACTIONAL_NOT_FOUND);
      if (!saved.enabled) return fail(sendsDisabled(saved.slug));
      return ok({ content: await contentOf(this.templates, saved), saved });
    }
    if (command.subject === undefined || body === undefined) return fail(NO_CONTENT);
    return ok({ content: { subject: command.subject, previewText: command.preview ?? null, body: { html: body } }, saved: null });
  }
}

function diagnosticsOf(unresolved: readonly UnresolvedMergeTag[], unused: readonly string[]): SentTransactional["diagnostics"] {
  if (unresolved.length === 0 && unused.length === 0) return undefined;
  return {
    status: "warning",
    message: "The email was queued, but some merge tags had no value or some variables were not used",
    missingRequiredVariables: unresolved.map((tag) => ({
      name: tag.name,
      lookupName: tag.name.split(".").at(-1) ?? tag.name,
      message: tag.reason === "unknown" ? `No variable named '${tag.name}' was provided; it rendered empty` : `'${tag.name}' has no value; it rendered empty`,
      suggestions: [],
      usedIn: tag.usedIn,
    })),
    unusedVariables: unused.map((name) => ({ name, message: `'${name}' is not used by this email`, suggestions: [] })),
  };
}
