import { toBounceBreakdown, toClickedLinks, toStats, type BounceBreakdown, type EngagementBreakdown, type Stats } from "./model.js";
import type { MetricsQueries, SendSelection } from "./ports.js";

/** The most clicked links a report lists. */
export const CLICKED_LINKS_LIMIT = 20;

export interface MetricsReport {
  readonly stats: Stats;
  readonly complaints: { readonly count: number; readonly rate: number };
  readonly bounceBreakdown: BounceBreakdown;
  readonly engagementBreakdown: EngagementBreakdown;
  readonly clickedLinks: ReadonlyArray<{ readonly url: string; readonly clicks: number; readonly percentage: number }>;
}

/** The funnel of the selected sends and its breakdowns: a handful of aggregates, run together. */
export async function metricsReport(
  queries: MetricsQueries,
  selection: SendSelection,
  options: { readonly includeMachineEngagement: boolean; readonly withoutReplies: boolean },
): Promise<MetricsReport> {
  const [counts, subtypes, links] = await Promise.all([
    queries.funnel(selection),
    queries.bounceSubtypes(selection),
    queries.clickedLinks(selection, { includeMachineEngagement: options.includeMachineEngagement, limit: CLICKED_LINKS_LIMIT }),
  ]);
  const stats = toStats(counts, options);
  return {
    stats,
    complaints: { count: stats.complaints, rate: stats.complaintRate },
    bounceBreakdown: toBounceBreakdown(counts, subtypes),
    // Both always, whatever includeMachineEngagement says.
    engagementBreakdown: {
      human: { opens: counts.humanOpened, clicks: counts.humanClicked },
      machine: { opens: counts.machineOpened, clicks: counts.machineClicked },
    },
    clickedLinks: toClickedLinks(links, stats.clicked),
  };
}
