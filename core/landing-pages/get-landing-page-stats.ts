import { resolveWindow, windowView, type PeriodName } from "../metrics/period.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { LandingStatsQuery } from "./commands.js";
import { LANDING_PAGE_NOT_FOUND } from "./errors.js";
import { hourOf, landingStats } from "./page-stats.js";
import type { LandingPageRepository } from "./ports.js";
import type { LandingStatsView } from "./stats-view.js";

/** Without a period or range: the last 30 days, the span a page's campaign is usually judged over. */
export const DEFAULT_STATS_PERIOD: PeriodName = "30d";

/**
 * GET /landing-pages/{id}/stats: the page's views and conversions over a period, counted by the
 * hour, so a window covers every hour it touches. Drafts answer too (with what they had while published).
 */
export class GetLandingPageStats {
  constructor(
    private readonly pages: LandingPageRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, landingPageId: string, query: LandingStatsQuery): Promise<Result<LandingStatsView>> => {
    const window = resolveWindow(query, this.clock.now(), DEFAULT_STATS_PERIOD);
    if (window._tag === "Left") return window;
    const { start, end } = window.right;
    // Never open: the fallback is a named period.
    if (!start || !end) throw new Error("A landing page stats window has both ends");
    const page = await this.pages.find(actor.companyId, landingPageId);
    if (!page) return fail(LANDING_PAGE_NOT_FOUND);
    const includeBots = query.includeBots ?? false;
    const hours = await this.pages.hours(actor.companyId, page.id, hourOf(start), end);
    return ok({ landingPageId: page.id, period: windowView(window.right), includeBots, ...landingStats({ ...window.right, start, end }, hours, includeBots) });
  };
}
