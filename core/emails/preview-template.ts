import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { RenderPreviewCommand } from "./commands.js";
import type { UnresolvedMergeTag } from "./email-renderer.js";
import { TEMPLATE_NOT_FOUND } from "./model.js";
import { previewLinkPlaceholder, previewMerge } from "./preview-merge.js";
import { localizedContent } from "./localization.js";
import type { TemplateLocalizationRepository, TemplateRepository } from "./ports.js";
import type { RenderEmail } from "./render-email.js";

export interface TemplatePreview {
  readonly html: string;
  readonly text: string;
  readonly subject: string;
  readonly previewText: string | null;
  /** The locale of the content used: the requested one's variant, else its language's, else `default`. */
  readonly locale: string;
  /** True when a contact's values filled the merge tags. */
  readonly personalized: boolean;
  /** Previews never carry tracking links or the open pixel. */
  readonly trackingApplied: false;
  readonly unresolvedMergeTags: ReadonlyArray<{ readonly tag: string; readonly reason: UnresolvedMergeTag["reason"] }>;
  /** Blocks have no display conditions here: always empty. */
  readonly unevaluatedConditions: readonly never[];
  readonly entity: { readonly type: "template"; readonly id: string; readonly variantId: null };
}

/**
 * POST /templates/{templateId}/render (compat-reference §11 render): the template as a contact
 * would receive it, rendered with the company's theme and default footer, without tracking.
 * The unsubscribe and view-in-browser links point at a preview placeholder. `locale` picks a
 * localized variant (that locale's, else its language's), else the default content.
 */
export class PreviewTemplate {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly localizations: TemplateLocalizationRepository,
    private readonly renderEmail: RenderEmail,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, templateId: string, input: RenderPreviewCommand): Promise<Result<TemplatePreview>> => {
    const template = await this.templates.find(actor.companyId, templateId);
    if (!template) return fail(TEMPLATE_NOT_FOUND);
    const merge = await previewMerge(this.subscribers, actor.companyId, input);
    if (merge._tag === "Left") return merge;
    const localized = localizedContent(template, await this.localizations.list(actor.companyId, template.id), input.locale);
    const placeholder = previewLinkPlaceholder(this.baseUrl);
    const rendered = await this.renderEmail.execute(actor.companyId, {
      content: localized.content,
      variables: merge.right.variables,
      suppliedVariables: merge.right.supplied,
      links: { unsubscribeUrl: placeholder, viewInBrowserUrl: placeholder },
    });
    if (rendered._tag === "Left") return rendered;
    const email = rendered.right;
    return ok({
      html: email.html,
      text: email.text,
      subject: email.subject,
      previewText: email.previewText,
      locale: localized.locale,
      personalized: merge.right.personalized,
      trackingApplied: false,
      unresolvedMergeTags: email.unresolvedMergeTags.map((tag) => ({ tag: tag.name, reason: tag.reason })),
      unevaluatedConditions: [],
      entity: { type: "template", id: template.id, variantId: null },
    });
  };
}
