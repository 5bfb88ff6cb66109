import type { RenderPreviewCommand } from "../emails/commands.js";
import { previewLinkPlaceholder, previewMerge } from "../emails/preview-merge.js";
import type { TemplatePreview } from "../emails/preview-template.js";
import type { RenderEmail } from "../emails/render-email.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { SEQUENCE_NOT_FOUND } from "./model.js";
import { emailContentOf, emailNode } from "./node-content.js";
import type { SequenceRepository } from "./ports.js";

export type SequenceNodePreview = Omit<TemplatePreview, "entity"> & {
  readonly entity: { readonly type: "sequence_node"; readonly id: string; readonly variantId: null };
};

/**
 * POST /sequences/{id}/nodes/{nodeId}/render (compat-reference §11 render body): an email step
 * as a contact would receive it, through the same pipeline as every send, without tracking.
 * `{{event.x}}` reads `variables.event` (a preview has no trigger event of its own).
 */
export class PreviewSequenceNode {
  constructor(
    private readonly sequences: SequenceRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly renderEmail: RenderEmail,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, sequenceId: string, nodeId: string, input: RenderPreviewCommand): Promise<Result<SequenceNodePreview>> => {
    const sequence = await this.sequences.find(actor.companyId, sequenceId);
    if (!sequence) return fail(SEQUENCE_NOT_FOUND);
    const node = emailNode(sequence, nodeId);
    if (node._tag === "Left") return node;
    const merge = await previewMerge(this.subscribers, actor.companyId, input);
    if (merge._tag === "Left") return merge;
    const placeholder = previewLinkPlaceholder(this.baseUrl);
    const rendered = await this.renderEmail.execute(actor.companyId, {
      content: emailContentOf(node.right),
      variables: { event: {}, ...merge.right.variables },
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
      locale: "default",
      personalized: merge.right.personalized,
      trackingApplied: false,
      unresolvedMergeTags: email.unresolvedMergeTags.map((tag) => ({ tag: tag.name, reason: tag.reason })),
      unevaluatedConditions: [],
      entity: { type: "sequence_node", id: nodeId, variantId: null },
    });
  };
}
