import { previewLinkPlaceholder, previewMerge } from "../emails/preview-merge.js";
import type { RenderPreviewCommand } from "../emails/commands.js";
import type { TemplatePreview } from "../emails/preview-template.js";
import type { RenderEmail } from "../emails/render-email.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { resolveComputedLists, type ResolvedComputedList } from "./computed-lists.js";
import { CAMPAIGN_NOT_FOUND, type Campaign } from "./model.js";
import type { CampaignRepository } from "./ports.js";

export type CampaignPreview = Omit<TemplatePreview, "entity"> & {
  readonly entity: { readonly type: "campaign"; readonly id: string; readonly variantId: null };
};

export const NOTHING_TO_RENDER = badRequest("The campaign has no content to render yet: give it a subject and html or blocks");

/**
 * The merge values of a campaign for a contact: its campaignData, under the contact's own values
 * (a contact's fields win), and its computed lists' exposures for this contact as `computed`.
 */
export const campaignVariables = (campaign: Campaign, contactValues: Readonly<Record<string, unknown>>): Record<string, unknown> =>
  variablesWithLists(campaign, contactValues, resolveComputedLists(campaign.computedLists, campaign.campaignData, contactValues));

/** The same, from the contact's lists already resolved. */
export function variablesWithLists(
  campaign: Campaign,
  contactValues: Readonly<Record<string, unknown>>,
  lists: readonly ResolvedComputedList[],
): Record<string, unknown> {
  const values = { ...campaign.campaignData, ...contactValues };
  return lists.length === 0 ? values : { ...values, computed: Object.fromEntries(lists.map((list) => [list.key, list.exposures])) };
}

/**
 * POST /campaigns/{id}/render (compat-reference §11 render): the campaign as a contact would
 * receive it, through the same pipeline as templates (theme, default footer, merge tags),
 * without tracking. Campaigns have no localized variants: the locale is always `default`.
 */
export class PreviewCampaign {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly renderEmail: RenderEmail,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, campaignId: string, input: RenderPreviewCommand): Promise<Result<CampaignPreview>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    if (!campaign.subject || !campaign.body) return fail(NOTHING_TO_RENDER);
    // The request's own variables come last: they override the contact's and the campaign's.
    const merge = await previewMerge(this.subscribers, actor.companyId, { subscriberId: input.subscriberId, subscriber: input.subscriber });
    if (merge._tag === "Left") return merge;
    const custom = input.variables ?? {};
    const placeholder = previewLinkPlaceholder(this.baseUrl);
    const rendered = await this.renderEmail.execute(actor.companyId, {
      content: { subject: campaign.subject, previewText: campaign.previewText, body: campaign.body },
      variables: { ...campaignVariables(campaign, merge.right.variables), ...custom },
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
      locale: "default",
      personalized: merge.right.personalized,
      trackingApplied: false,
      unresolvedMergeTags: email.unresolvedMergeTags.map((tag) => ({ tag: tag.name, reason: tag.reason })),
      unevaluatedConditions: [],
      entity: { type: "campaign", id: campaign.id, variantId: null },
    });
  };
}
