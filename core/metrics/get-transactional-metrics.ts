import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TransactionalMetricsQuery } from "./commands.js";
import { metricsReport, type MetricsReport } from "./metrics-report.js";
import { resolveWindow, windowView } from "./period.js";
import type { MetricsQueries, TransactionalIdentity } from "./ports.js";

export interface TransactionalMetrics extends MetricsReport {
  readonly period: ReturnType<typeof windowView>;
  readonly transactional: TransactionalIdentity;
}

export const TRANSACTIONAL_NOT_FOUND = "Transactional email not found";

/** GET /metrics/transactional/{idOrSlug}: the funnel of one saved transactional email's sends, all time unless a range is given. */
export class GetTransactionalMetrics {
  constructor(
    private readonly queries: MetricsQueries,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, idOrSlug: string, query: TransactionalMetricsQuery): Promise<Result<TransactionalMetrics>> => {
    const window = resolveWindow(query, this.clock.now(), "all");
    if (window._tag === "Left") return window;
    const transactional = await this.queries.findTransactional(actor.companyId, idOrSlug);
    if (!transactional) return fail(notFound(TRANSACTIONAL_NOT_FOUND));
    const report = await metricsReport(
      this.queries,
      { companyId: actor.companyId, window: window.right, transactionalEmailId: transactional.id },
      { includeMachineEngagement: query.includeMachineEngagement ?? false, withoutReplies: false },
    );
    return ok({ period: windowView(window.right), transactional, ...report });
  };
}
