import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CampaignShareLinkRepository } from "./campaign-share-link.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";

/** DELETE /campaigns/{id}/share-link: the public URL stops working at once; revoked is false when no link was live. */
export class UnshareCampaign {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly shareLinks: CampaignShareLinkRepository,
  ) {}

  execute = async (actor: Actor, campaignId: string): Promise<Result<{ campaignId: string; revoked: boolean }>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    return ok({ campaignId: campaign.id, revoked: await this.shareLinks.delete(actor.companyId, campaign.id) });
  };
}
