import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { toGoalView, type CampaignGoalRepository, type GoalView } from "./goals.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";

/** GET /campaigns/{id}/goals: oldest first. */
export class ListCampaignGoals {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly goals: CampaignGoalRepository,
  ) {}

  execute = async (actor: Actor, campaignId: string): Promise<Result<{ goals: GoalView[] }>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    return ok({ goals: (await this.goals.list(actor.companyId, campaign.id)).map(toGoalView) });
  };
}
