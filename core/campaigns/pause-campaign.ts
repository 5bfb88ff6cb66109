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

/**
 * POST /campaigns/{id}/pause: a sending campaign stops after the batch being queued; messages
 * already handed to the email pipeline still go out. Resume takes it on from its next batch.
 */
export class PauseCampaign {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly metrics: MetricsQueries,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, campaignId: string): Promise<Result<CampaignView>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    const status = transition(campaign.status, "pause");
    if (status._tag === "Left") return status;
    const saved = await saveMove(this.campaigns, campaign, { ...campaign, status: status.right, updatedAt: this.clock.now() }, "pause");
    return saved._tag === "Left" ? saved : ok(await campaignWithStats(this.metrics, saved.right));
  };
}
