import type { MetricsQueries } from "../metrics/ports.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { campaignWithStats } from "./campaign-stats.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import { saveMove } from "./save-move.js";
import { transition } from "./transitions.js";
import type { CampaignView } from "./view.js";

/** POST /campaigns/{id}/cancel: a scheduled, sending or paused campaign is cancelled, for good. */
export class CancelCampaign {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly metrics: MetricsQueries,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, campaignId: string): Promise<Result<CampaignView>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    const status = transition(campaign.status, "cancel");
    if (status._tag === "Left") return status;
    const saved = await saveMove(this.campaigns, campaign, { ...campaign, status: status.right, updatedAt: this.clock.now() }, "cancel");
    return saved._tag === "Left" ? saved : ok(await campaignWithStats(this.metrics, saved.right));
  };
}
