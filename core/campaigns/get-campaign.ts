import type { MetricsQueries } from "../metrics/ports.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { campaignWithStats } from "./campaign-stats.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import type { CampaignView } from "./view.js";

/** GET /campaigns/{id}: content, audience, identity and stats. */
export class GetCampaign {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly metrics: MetricsQueries,
  ) {}

  execute = async (actor: Actor, campaignId: string): Promise<Result<CampaignView>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    return ok(await campaignWithStats(this.metrics, campaign));
  };
}
