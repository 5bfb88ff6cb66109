import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TrackingSettingsRepository } from "../tracking-settings/ports.js";
import type { CreateCampaignGoalCommand } from "./commands.js";
import { refuseAttributeGoals } from "./goal-rules.js";
import { MAX_CAMPAIGN_GOALS, toGoalView, type CampaignGoalRepository, type GoalView } from "./goals.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";

export const EVENT_NAME_REQUIRED = badRequest("triggerEventName is required: the event a recipient does that counts as a conversion");

/**
 * POST /campaigns/{id}/goals: an event goal, active unless said otherwise; without
 * attributionWindowHours it takes the company's default attribution window (PATCH /tracking-settings).
 */
export class CreateCampaignGoal {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly goals: CampaignGoalRepository,
    private readonly trackingSettings: TrackingSettingsRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, campaignId: string, input: CreateCampaignGoalCommand): Promise<Result<{ goal: GoalView }>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    const refused = refuseAttributeGoals(input);
    if (refused._tag === "Left") return refused;
    if (!input.triggerEventName) return fail(EVENT_NAME_REQUIRED);
    if ((await this.goals.list(actor.companyId, campaign.id)).length >= MAX_CAMPAIGN_GOALS) {
      return fail(badRequest(`A campaign has at most ${MAX_CAMPAIGN_GOALS} goals: delete one first`));
    }
    const now = this.clock.now();
    const goal = {
      id: this.ids.next("goal"),
      companyId: actor.companyId,
      campaignId: campaign.id,
      name: input.name,
      description: input.description ?? null,
      triggerEventName: input.triggerEventName,
      eventPropertyName: input.eventPropertyName ?? null,
      eventPropertyLabel: input.eventPropertyLabel ?? null,
      attributionWindowHours: input.attributionWindowHours ?? (await this.trackingSettings.find(actor.companyId)).defaultAttributionWindowHours,
      isActive: input.isActive ?? true,
      createdAt: now,
      updatedAt: now,
    };
    await this.goals.insert(goal);
    return ok({ goal: toGoalView(goal) });
  };
}
