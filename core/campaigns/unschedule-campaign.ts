import type { MetricsQueries } from "../metrics/ports.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { campaignWithStats } from "./campaign-stats.js";
import { CAMPAIGN_NOT_FOUND, NO_SCHEDULE } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import { saveMove } from "./save-move.js";
import { transition } from "./transitions.js";
import type { CampaignView } from "./view.js";

/** POST /campaigns/{id}/unschedule: back to draft; the time, spread, timezone and recurrence are removed. */
export class UnscheduleCampaign {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly metrics: MetricsQueries,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, campaignId: string): Promise<Result<CampaignView>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    const status = transition(campaign.status, "unschedule");
    if (status._tag === "Left") return status;
    const schedule = {
      ...NO_SCHEDULE,
      // Send-time optimisation is also a draft's setting (PUT): it stays.
      sendTimeOptimization: campaign.schedule.sendTimeOptimization,
      sendTimeWindowHours: campaign.schedule.sendTimeWindowHours,
    };
    const saved = await saveMove(this.campaigns, campaign, { ...campaign, status: status.right, schedule, updatedAt: this.clock.now() }, "unschedule");
    return saved._tag === "Left" ? saved : ok(await campaignWithStats(this.metrics, saved.right));
  };
}
