import type { CampaignGoalRepository } from "../campaigns/goals.js";
import { CAMPAIGN_NOT_FOUND } from "../campaigns/model.js";
import type { CampaignRepository } from "../campaigns/ports.js";
import { toCampaignSummaryView, type CampaignSummaryView } from "../campaigns/view.js";
import type { MailboxProvider } from "./mailbox-provider.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CampaignMetricsQuery } from "./commands.js";
import { metricsReport, type MetricsReport } from "./metrics-report.js";
import { resolveWindow, windowView } from "./period.js";
import { campaignCredit } from "./campaign-credit.js";
import type { Credit } from "./credit.js";
import { rate, type Stats } from "./model.js";
import type { EmailMetricsQueries, MetricsQueries } from "./ports.js";

export interface GoalConversions {
  readonly id: string;
  readonly name: string;
  readonly triggerEventName: string;
  readonly attributionWindowHours: number;
  /** Contacts the sends reached who did the goal's event within the window after their send. */
  readonly conversions: number;
  /** Conversions as a percentage of the stats' rateDenominator. */
  readonly conversionRate: number;
}

export interface CampaignMetrics extends MetricsReport {
  /** The funnel, and the conversions and revenue of the campaign's active goals. */
  readonly stats: Stats & Credit;
  readonly campaign: CampaignSummaryView;
  readonly period: ReturnType<typeof windowView>;
  /** No poll blocks exist on this server: always empty. */
  readonly polls: readonly never[];
  /** No recommendation engine on this server: always an empty object. */
  readonly recommendations: Readonly<Record<string, never>>;
  /** The campaign's active goals and their conversions over the same sends. */
  readonly goals: readonly GoalConversions[];
  readonly mailboxProvider?: MailboxProvider;
}

/**
 * GET /metrics/campaigns/{campaignId}: the funnel of one campaign's sends (test sends never
 * count), all time unless a range is given, with the account metrics' rules (machine engagement
 * left out unless asked for) and the same figures as the campaign's own `stats`; each active
 * goal's conversions are counted over the same sends (a mailbox provider filter aside), and the stats
 * add their conversions and revenue.
 */
export class GetCampaignMetrics {
  constructor(
    private readonly queries: MetricsQueries,
    private readonly campaigns: CampaignRepository,
    private readonly goals: CampaignGoalRepository,
    private readonly emailQueries: EmailMetricsQueries,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, campaignId: string, query: CampaignMetricsQuery): Promise<Result<CampaignMetrics>> => {
    const window = resolveWindow(query, this.clock.now(), "all");
    if (window._tag === "Left") return window;
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    const report = await metricsReport(
      this.queries,
      { companyId: actor.companyId, window: window.right, campaignId: campaign.id, mailboxProvider: query.mailboxProvider },
      // Replies are not attributed to a mailbox provider.
      { includeMachineEngagement: query.includeMachineEngagement ?? false, withoutReplies: query.mailboxProvider !== undefined },
    );
    const active = (await this.goals.list(actor.companyId, campaign.id)).filter((goal) => goal.isActive);
    const credit = await campaignCredit(this.emailQueries, active, { companyId: actor.companyId, campaignId: campaign.id, window: window.right });
    const goals = active.map((goal) => {
      const conversions = credit.byGoal.get(goal.id) ?? 0;
      return {
        id: goal.id,
        name: goal.name,
        triggerEventName: goal.triggerEventName,
        attributionWindowHours: goal.attributionWindowHours,
        conversions,
        conversionRate: rate(conversions, report.stats.rateDenominator),
      };
    });
    return ok({
      campaign: toCampaignSummaryView(campaign),
      period: windowView(window.right),
      ...report,
      stats: { ...report.stats, ...credit.total },
      polls: [],
      recommendations: {},
      goals,
      ...(query.mailboxProvider ? { mailboxProvider: query.mailboxProvider } : {}),
    });
  };
}
