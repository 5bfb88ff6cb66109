import type { Actor } from "../shared/actor.js";
import { offsetPagination, readOffsetPage, type OffsetPagination } from "../shared/offset-pagination.js";
import { ok, type Result } from "../shared/result.js";
import type { ListCampaignsQuery } from "./commands.js";
import type { CampaignRepository } from "./ports.js";
import { toCampaignSummaryView, type CampaignSummaryView } from "./view.js";

/** GET /campaigns: newest first, optionally of one status or carrying a label. */
export class ListCampaigns {
  constructor(private readonly campaigns: CampaignRepository) {}

  execute = async (actor: Actor, query: ListCampaignsQuery): Promise<Result<{ campaigns: CampaignSummaryView[]; pagination: OffsetPagination }>> => {
    const asked = readOffsetPage(query);
    const page = await this.campaigns.list(actor.companyId, { status: query.status, label: query.label, ...asked });
    return ok({
      campaigns: page.campaigns.map(toCampaignSummaryView),
      pagination: offsetPagination(asked.limit, asked.offset, page.campaigns.length, page.total),
    });
  };
}
