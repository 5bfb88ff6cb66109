import { ALL_TIME } from "../metrics/period.js";
import type { MetricsQueries } from "../metrics/ports.js";
import { toStats } from "../metrics/model.js";
import type { Campaign } from "./model.js";
import { toCampaignView, type CampaignView } from "./view.js";

/** The campaign with the stats of its sends so far (all time, test sends and machine engagement left out, as in metrics). */
export async function campaignWithStats(metrics: MetricsQueries, campaign: Campaign, shareUrl: string | null = null): Promise<CampaignView> {
  const counts = await metrics.funnel({ companyId: campaign.companyId, window: ALL_TIME, campaignId: campaign.id });
  return toCampaignView(campaign, toStats(counts, { includeMachineEngagement: false, withoutReplies: false }), shareUrl);
}
