import { GetSequenceMetrics } from "../../../core/metrics/get-sequence-metrics.js";
import { MAX_RANGE_DAYS } from "../../../core/metrics/period.js";
import { SequenceMetricsPath, SequenceMetricsQuery } from "../../../core/metrics/sequence-metrics-commands.js";
import { SequenceMetricsView } from "../../../core/metrics/sequence-metrics-view.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

/** Metrics of one sequence (compat-reference §16). */
export const sequenceMetricsRoutes = routeModule({ getSequenceMetrics: GetSequenceMetrics }, (uses) => [
  defineRoute({
    method: "get",
    path: "/metrics/sequences/:sequenceId",
    tag: "Metrics",
    scopes: ["analytics:read"],
    summary: `Metrics of one sequence: stats (the funnel of its sends made in the window, all time unless period or start and end are given; test sends excluded; conversions and revenueCents are 0, goals are not attributed here), steps[] (each email step in the order contacts meet it, with its stats, failedCount and the latest 20 failedSubscribers), enrollmentCounts (running enrollments now, per current node) and enrollmentSkipped (steps skipped, by reason). start and end go together (400) and span at most ${MAX_RANGE_DAYS} days (400). 404 'Sequence not found'`,
    params: SequenceMetricsPath,
    query: SequenceMetricsQuery,
    response: SequenceMetricsView,
    errors: [400, 404, 422],
    handle: async ({ input, actor }) => uses.getSequenceMetrics.execute(actor, input.params.sequenceId, input.query),
  }),
]);
