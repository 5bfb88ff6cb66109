import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { UpdateCampaignGoalCommand } from "./commands.js";
import { refuseAttributeGoals } from "./goal-rules.js";
import { GOAL_NOT_FOUND_MESSAGE, toGoalView, type CampaignGoalRepository, type GoalView } from "./goals.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";

export const NO_GOAL_FIELDS = badRequest("No supported fields provided");

/** PATCH /campaigns/{id}/goals/{goalId}: the fields given; the others are kept. */
export class UpdateCampaignGoal {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly goals: CampaignGoalRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, campaignId: string, goalId: string, input: UpdateCampaignGoalCommand): Promise<Result<{ goal: GoalView }>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    const goal = await this.goals.find(actor.companyId, campaign.id, goalId);
    if (!goal) return fail(notFound(GOAL_NOT_FOUND_MESSAGE));
    const refused = refuseAttributeGoals(input);
    if (refused._tag === "Left") return refused;
    if (Object.values(input).every((value) => value === undefined)) return fail(NO_GOAL_FIELDS);
    const updated = {
      ...goal,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.triggerEventName !== undefined ? { triggerEventName: input.triggerEventName } : {}),
      ...(input.eventPropertyName !== undefined ? { eventPropertyName: input.eventPropertyName } : {}),
      ...(input.eventPropertyLabel !== undefined ? { eventPropertyLabel: input.eventPropertyLabel } : {}),
      ...(input.attributionWindowHours !== undefined ? { attributionWindowHours: input.attributionWindowHours } : {}),
      ...(input.isActive !== undefined ? { isActive: input.isActive } : {}),
      updatedAt: this.clock.now(),
    };
    await this.goals.update(updated);
    return ok({ goal: toGoalView(updated) });
  };
}
