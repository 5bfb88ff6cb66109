import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { notFound } from "../shared/errors.js";
import { GOAL_NOT_FOUND_MESSAGE, type CampaignGoalRepository } from "./goals.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";

/** DELETE /campaigns/{id}/goals/{goalId}: the goal and its conversions figure go; the events stay. */
export class DeleteCampaignGoal {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly goals: CampaignGoalRepository,
  ) {}

  execute = async (actor: Actor, campaignId: string, goalId: string): Promise<Result<{ goalId: string }>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    if (!(await this.goals.delete(actor.companyId, campaign.id, goalId))) return fail(notFound(GOAL_NOT_FOUND_MESSAGE));
    return ok({ goalId });
  };
}
