import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import { illegalMove, transition } from "./transitions.js";

/** DELETE /campaigns/{id}: not while scheduled, sending or paused (cancel or unschedule it first). Its sends stay. */
export class DeleteCampaign {
  constructor(private readonly campaigns: CampaignRepository) {}

  execute = async (actor: Actor, campaignId: string): Promise<Result<{ campaignId: string }>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    const allowed = transition(campaign.status, "delete");
    if (allowed._tag === "Left") return allowed;
    if (await this.campaigns.delete(actor.companyId, campaignId, campaign.status)) return ok({ campaignId });
    const now = await this.campaigns.find(actor.companyId, campaignId);
    return fail(now ? illegalMove(now.status, "delete") : CAMPAIGN_NOT_FOUND);
  };
}
