import { contactVariables } from "../emails/merge-variables.js";
import { previewLinkPlaceholder } from "../emails/preview-merge.js";
import type { RenderEmail } from "../emails/render-email.js";
import { SAMPLE_CONTACT } from "../emails/share-link.js";
import { SHARED_EMAIL_NOT_FOUND } from "../emails/show-shared-email.js";
import type { Clock } from "../ports/clock.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CampaignShareLinkRepository, CampaignShareTokens } from "./campaign-share-link.js";
import type { CampaignRepository } from "./ports.js";
import { campaignVariables } from "./preview-campaign.js";

/**
 * The public page of a campaign's share link (no API key): the campaign's email rendered for a
 * sample contact (its campaignData filled in), with the company's theme and footer, an inert
 * unsubscribe link and no tracking. A token this server did not sign, a revoked link (its nonce
 * is gone) or a deleted campaign is not found.
 */
export class ShowSharedCampaign {
  constructor(
    private readonly shareTokens: CampaignShareTokens,
    private readonly shareLinks: CampaignShareLinkRepository,
    private readonly campaigns: CampaignRepository,
    private readonly renderEmail: RenderEmail,
    private readonly clock: Clock,
    private readonly baseUrl: string,
  ) {}

  execute = async (shareToken: string): Promise<Result<{ readonly subject: string; readonly html: string }>> => {
    const named = this.shareTokens.read(shareToken, this.clock.now());
    const link = named && (await this.shareLinks.findLive(named.campaignId));
    if (!named || !link || link.nonce !== named.nonce) return fail(SHARED_EMAIL_NOT_FOUND);
    const campaign = await this.campaigns.find(link.companyId, link.campaignId);
    if (!campaign?.subject || !campaign.body) return fail(SHARED_EMAIL_NOT_FOUND);
    const placeholder = previewLinkPlaceholder(this.baseUrl);
    const rendered = await this.renderEmail.execute(link.companyId, {
      content: { subject: campaign.subject, previewText: campaign.previewText, body: campaign.body },
      variables: campaignVariables(campaign, contactVariables(SAMPLE_CONTACT)),
      links: { unsubscribeUrl: placeholder, viewInBrowserUrl: placeholder },
    });
    if (rendered._tag === "Left") return rendered;
    return ok({ subject: rendered.right.subject, html: rendered.right.html });
  };
}
