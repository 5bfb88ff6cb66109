import { MAX_METRICS_PAGE_LIMIT } from "../../../core/metrics/commands.js";
import { GetSequenceMetrics } from "../../../core/metrics/get-sequence-metrics.js";
import { DEFAULT_EVENTS_LIMIT } from "../../../core/metrics/list-campaign-events.js";
import { ListSequenceEvents } from "../../../core/metrics/list-sequence-events.js";
import { CAMPAIGN_EVENT_TYPES } from "../../../core/metrics/ports.js";
import { MAX_RANGE_DAYS } from "../../../core/metrics/period.js";
import { SequenceEventsQuery, SequenceMetricsPath, SequenceMetricsQuery } from "../../../core/metrics/sequence-metrics-commands.js";
import { SequenceEventsView, SequenceMetricsView } from "../../../core/metrics/sequence-metrics-view.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

/** Metrics of one sequence (compat-reference §16). */
export const sequenceMetricsRoutes = routeModule({ getSequenceMetrics: GetSequenceMetrics, listEvents: ListSequenceEvents }, (uses) => [
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
  defineRoute({
    method: "get",
    path: "/metrics/sequences/:sequenceId/events",
    tag: "Metrics",
    scopes: ["analytics:read"],
    summary: `The events of one sequence's sends (test sends never), newest first, each with the automationNodeId of its step: eventTypes, a comma list of ${CAMPAIGN_EVENT_TYPES.join(", ")} (default delivery); automationNodeId narrows to one step; all time unless period or start and end (of the events' times; together, at most ${MAX_RANGE_DAYS} days: 400) are given; page and limit 1-${MAX_METRICS_PAGE_LIMIT} (default ${DEFAULT_EVENTS_LIMIT}). 404 'Sequence not found'`,
    params: SequenceMetricsPath,
    query: SequenceEventsQuery,
    response: SequenceEventsView,
    errors: [400, 404, 422],
    handle: async ({ input, actor }) => uses.listEvents.execute(actor, input.params.sequenceId, input.query),
  }),
]);
