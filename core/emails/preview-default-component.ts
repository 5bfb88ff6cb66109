import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { EmailBlock } from "./blocks.js";
import type { PreviewDefaultComponentCommand } from "./commands.js";
import { proposedDefault } from "./component-rules.js";
import { TEMPLATE_NOT_FOUND, type DefaultSlot, type EmailContent } from "./model.js";
import type { TemplateRepository } from "./ports.js";
import { previewLinkPlaceholder, previewMerge } from "./preview-merge.js";
import type { RenderEmail } from "./render-email.js";

export interface DefaultComponentPreview {
  readonly html: string;
  readonly text: string;
  readonly subject: string;
  readonly previewText: string | null;
  /** The footer as PUT would save it (footer blocks keep their unsubscribe link). */
  readonly footer: { readonly slot: DefaultSlot; readonly blocks: readonly EmailBlock[] };
  /** The template the footer is shown under; null for the sample email. */
  readonly template: { readonly id: string; readonly name: string } | null;
  readonly personalized: boolean;
  readonly trackingApplied: false;
  readonly unresolvedMergeTags: ReadonlyArray<{ readonly tag: string; readonly reason: "unknown" | "no_value" }>;
  readonly warnings: readonly string[];
}

/** What the footer is shown under when no template is named. */
const SAMPLE_EMAIL: EmailContent = {
  subject: "Footer preview",
  previewText: null,
  body: {
    blocks: [
      { type: "heading", content: "Footer preview" },
      { type: "text", content: "The content of your emails appears here. The footer below is the one being previewed." },
    ],
  },
};

/**
 * POST /email-components/defaults/{slot}/preview: an email rendered with the footer a PUT of the
 * same body would set, under one of the company's templates or a sample email, with the
 * company's theme. Nothing is saved and no tracking is applied.
 */
export class PreviewDefaultComponent {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly renderEmail: RenderEmail,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, slotName: string, input: PreviewDefaultComponentCommand): Promise<Result<DefaultComponentPreview>> => {
    const proposed = proposedDefault(slotName, input.blocks);
    if (proposed._tag === "Left") return proposed;
    const template = input.templateId === undefined ? null : await this.templates.find(actor.companyId, input.templateId);
    if (input.templateId !== undefined && !template) return fail(TEMPLATE_NOT_FOUND);
    const merge = await previewMerge(this.subscribers, actor.companyId, input);
    if (merge._tag === "Left") return merge;
    const placeholder = previewLinkPlaceholder(this.baseUrl);
    const rendered = await this.renderEmail.execute(actor.companyId, {
      content: template ?? SAMPLE_EMAIL,
      variables: merge.right.variables,
      suppliedVariables: merge.right.supplied,
      links: { unsubscribeUrl: placeholder, viewInBrowserUrl: placeholder },
      footer: proposed.right.blocks,
    });
    if (rendered._tag === "Left") return rendered;
    const email = rendered.right;
    return ok({
      html: email.html,
      text: email.text,
      subject: email.subject,
      previewText: email.previewText,
      footer: { slot: proposed.right.slot, blocks: proposed.right.blocks },
      template: template ? { id: template.id, name: template.name } : null,
      personalized: merge.right.personalized,
      trackingApplied: false,
      unresolvedMergeTags: email.unresolvedMergeTags.map((tag) => ({ tag: tag.name, reason: tag.reason })),
      warnings: proposed.right.warnings,
    });
  };
}
