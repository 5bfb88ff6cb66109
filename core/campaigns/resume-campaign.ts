import type { MetricsQueries } from "../metrics/ports.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { campaignWithStats } from "./campaign-stats.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import type { ResumeCampaignCommand } from "./send-commands.js";
import { unkeyedBatchJob } from "./send-jobs.js";
import { batchSizeFor } from "./send-model.js";
import { lowestRate, type CampaignSendSettings, type CampaignSendRepository } from "./send-ports.js";
import { illegalMove, transition } from "./transitions.js";
import type { CampaignView } from "./view.js";

const HOUR_MS = 3_600_000;

/**
 * POST /campaigns/{id}/resume: a paused campaign sends again from its next batch, at once, or
 * with `spreadOverHours` evenly over that many hours from now.
 */
export class ResumeCampaign {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly sends: CampaignSendRepository,
    private readonly metrics: MetricsQueries,
    private readonly settings: CampaignSendSettings,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, campaignId: string, input: ResumeCampaignCommand): Promise<Result<CampaignView>> => {
    const { companyId } = actor;
    const campaign = await this.campaigns.find(companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    const status = transition(campaign.status, "resume");
    if (status._tag === "Left") return status;
    const now = this.clock.now();
    const state = campaign.send;
    const hours = input.spreadOverHours;
    const spread =
      hours !== undefined && state
        ? {
            hours,
            windowEndsAt: new Date(now.getTime() + hours * HOUR_MS),
            batchSize: batchSizeFor(Math.max(0, state.recipients - state.processed), {
              batchSize: this.settings.batchSize,
              spreadOverHours: hours,
              perMinute: lowestRate(this.settings),
            }),
          }
        : null;
    const resumed = await this.sends.resume({ companyId, campaignId, spread, job: (batch) => unkeyedBatchJob(companyId, campaignId, batch, now), now });
    const after = await this.campaigns.find(companyId, campaignId);
    if (!after) return fail(CAMPAIGN_NOT_FOUND);
    // Another request moved it first: the refusal names the state it is in now.
    if (!resumed) return fail(illegalMove(after.status, "resume"));
    return ok(await campaignWithStats(this.metrics, after));
  };
}
