import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { localizedContent } from "./localization.js";
import { contactVariables } from "./merge-variables.js";
import type { TemplateLocalizationRepository, TemplateRepository, TemplateShareLinkRepository } from "./ports.js";
import { previewLinkPlaceholder } from "./preview-merge.js";
import type { RenderEmail } from "./render-email.js";
import { SAMPLE_CONTACT } from "./share-link.js";

export const SHARED_EMAIL_NOT_FOUND = notFound("Shared email not found");

/**
 * The public page of a share link (no API key): the template rendered for a sample contact, with
 * the company's theme and footer, an inert unsubscribe link and no tracking. A revoked link or a
 * deleted template is not found. `locale` picks a localized variant as a render does.
 */
export class ShowSharedEmail {
  constructor(
    private readonly shareLinks: TemplateShareLinkRepository,
    private readonly templates: TemplateRepository,
    private readonly localizations: TemplateLocalizationRepository,
    private readonly renderEmail: RenderEmail,
    private readonly baseUrl: string,
  ) {}

  execute = async (token: string, locale?: string): Promise<Result<{ readonly subject: string; readonly html: string }>> => {
    const link = await this.shareLinks.findByToken(token);
    const template = link && (await this.templates.find(link.companyId, link.templateId));
    if (!link || !template) return fail(SHARED_EMAIL_NOT_FOUND);
    const { content } = localizedContent(template, await this.localizations.list(link.companyId, template.id), locale);
    const placeholder = previewLinkPlaceholder(this.baseUrl);
    const rendered = await this.renderEmail.execute(link.companyId, {
      content,
      variables: contactVariables(SAMPLE_CONTACT),
      links: { unsubscribeUrl: placeholder, viewInBrowserUrl: placeholder },
    });
    if (rendered._tag === "Left") return rendered;
    return ok({ subject: rendered.right.subject, html: rendered.right.html });
  };
}
