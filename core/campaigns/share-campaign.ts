import type { Clock } from "../ports/clock.js";
import type { RandomTokens } from "../ports/random-tokens.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CampaignShareLinkRepository, CampaignShareTokens } from "./campaign-share-link.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";

export interface SharedCampaign {
  readonly campaignId: string;
  readonly shareUrl: string;
  readonly shareToken: string;
  /** False when the campaign already had a live link: the same URL is returned, not a new one. */
  readonly created: boolean;
}

/**
 * POST /campaigns/{id}/share-link: the campaign's public link, created once and then returned
 * as is (idempotent), so copies shared earlier keep working until it is revoked.
 */
export class ShareCampaign {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly shareLinks: CampaignShareLinkRepository,
    private readonly shareTokens: CampaignShareTokens,
    private readonly randomTokens: RandomTokens,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, campaignId: string): Promise<Result<SharedCampaign>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    const fresh = { campaignId: campaign.id, companyId: actor.companyId, nonce: this.randomTokens.next(), createdAt: this.clock.now() };
    const created = await this.shareLinks.insert(fresh);
    const link = created ? fresh : await this.shareLinks.find(actor.companyId, campaign.id);
    // Revoked by another request between the two statements.
    if (!link) return this.execute(actor, campaignId);
    const shareToken = this.shareTokens.tokenOf(link);
    return ok({ campaignId: campaign.id, shareUrl: this.shareTokens.urlOf(shareToken), shareToken, created });
  };
}
