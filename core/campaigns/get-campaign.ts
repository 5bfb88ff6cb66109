import type { MetricsQueries } from "../metrics/ports.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CampaignShareLinkRepository, CampaignShareTokens } from "./campaign-share-link.js";
import { campaignWithStats } from "./campaign-stats.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import type { CampaignView } from "./view.js";

/** GET /campaigns/{id}: content, audience, identity, stats and the live share link. */
export class GetCampaign {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly metrics: MetricsQueries,
    private readonly shareLinks: CampaignShareLinkRepository,
    private readonly shareTokens: CampaignShareTokens,
  ) {}

  execute = async (actor: Actor, campaignId: string): Promise<Result<CampaignView>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    const link = await this.shareLinks.find(actor.companyId, campaign.id);
    return ok(await campaignWithStats(this.metrics, campaign, link ? this.shareTokens.urlOf(this.shareTokens.tokenOf(link)) : null));
  };
}
