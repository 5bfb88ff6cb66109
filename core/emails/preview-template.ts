import type { Actor } from "../shared/actor.js";
import { badRequest, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { RenderPreviewCommand } from "./commands.js";
import type { UnresolvedMergeTag } from "./email-renderer.js";
import { contactVariables, type ContactForMerge } from "./merge-variables.js";
import { TEMPLATE_NOT_FOUND } from "./model.js";
import type { TemplateRepository } from "./ports.js";
import type { RenderEmail } from "./render-email.js";

export interface TemplatePreview {
  readonly html: string;
  readonly text: string;
  readonly subject: string;
  readonly previewText: string | null;
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
 * The unsubscribe and view-in-browser links point at a preview placeholder.
 */
export class PreviewTemplate {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly renderEmail: RenderEmail,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, templateId: string, input: RenderPreviewCommand): Promise<Result<TemplatePreview>> => {
    if (input.subscriberId !== undefined && input.subscriber !== undefined) return fail(badRequest("Provide subscriberId or subscriber, not both"));
    const template = await this.templates.find(actor.companyId, templateId);
    if (!template) return fail(TEMPLATE_NOT_FOUND);

    let contact: ContactForMerge | null = input.subscriber ?? null;
    if (input.subscriberId !== undefined) {
      contact = await this.subscribers.findById(actor.companyId, input.subscriberId);
      if (!contact) return fail(notFound("Subscriber not found"));
    }
    const custom = input.variables ?? {};
    const placeholder = `${this.baseUrl.replace(/\/+$/, "")}/u/preview`;
    const rendered = await this.renderEmail.execute(actor.companyId, {
      content: template,
      variables: { ...(contact ? contactVariables(contact) : {}), ...custom },
      suppliedVariables: Object.keys(custom),
      links: { unsubscribeUrl: placeholder, viewInBrowserUrl: placeholder },
    });
    if (rendered._tag === "Left") return rendered;
    const email = rendered.right;
    return ok({
      html: email.html,
      text: email.text,
      subject: email.subject,
      previewText: email.previewText,
      locale: input.locale ?? "default",
      personalized: contact !== null,
      trackingApplied: false,
      unresolvedMergeTags: email.unresolvedMergeTags.map((tag) => ({ tag: tag.name, reason: tag.reason })),
      unevaluatedConditions: [],
      entity: { type: "template", id: template.id, variantId: null },
    });
  };
}
