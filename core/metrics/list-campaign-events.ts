import { CAMPAIGN_NOT_FOUND } from "../campaigns/model.js";
import type { CampaignRepository } from "../campaigns/ports.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { pagePagination, readPage, type PagePagination } from "../shared/page-pagination.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CampaignEventsQuery } from "./commands.js";
import { resolveWindow } from "./period.js";
import type { MetricsWindow } from "./period.js";
import type { CampaignEventRecord, CampaignEventSelection, EmailMetricsQueries } from "./ports.js";

export type CampaignEventItem = Omit<CampaignEventRecord, "eventTime"> & { readonly eventTime: string };

/** A page of GET /metrics/campaigns/{id}/events when no limit is given. */
export const DEFAULT_EVENTS_LIMIT = 100;

/**
 * GET /metrics/campaigns/{campaignId}/events: the events of the campaign's sends (test sends
 * never), newest first, of the types asked for (delivery by default), all time unless a range
 * of the events' times is given; scanner, preview and prefetch opens and clicks only with
 * includeMachineEngagement=true.
 */
export class ListCampaignEvents {
  constructor(
    private readonly queries: EmailMetricsQueries,
    private readonly campaigns: CampaignRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (
    actor: Actor,
    campaignId: string,
    query: CampaignEventsQuery,
  ): Promise<Result<{ events: CampaignEventItem[]; pagination: PagePagination }>> => {
    const window = resolveWindow(query, this.clock.now(), "all");
    if (window._tag === "Left") return window;
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    return ok(await pageOfEvents(this.queries, { companyId: actor.companyId, campaignId: campaign.id }, window.right, query));
  };
}

/** Whose sends an events page reads: a campaign's, or a sequence's (optionally one step's). */
type SendsSelection = Pick<CampaignEventSelection, "companyId" | "campaignId" | "automationId" | "automationNodeId">;

/** A page of the selected sends' events, as both the campaign and the sequence events logs answer it. */
export async function pageOfEvents(
  queries: EmailMetricsQueries,
  sends: SendsSelection,
  window: MetricsWindow,
  query: CampaignEventsQuery,
): Promise<{ events: CampaignEventItem[]; pagination: PagePagination }> {
  const page = readPage(query, DEFAULT_EVENTS_LIMIT);
  const { events, total } = await queries.campaignEvents(
    { ...sends, window, eventTypes: query.eventTypes ?? ["delivery"], includeMachineEngagement: query.includeMachineEngagement ?? false },
    page,
  );
  return {
    events: events.map((event) => ({ ...event, eventTime: event.eventTime.toISOString() })),
    pagination: pagePagination(page.page, page.limit, total),
  };
}
