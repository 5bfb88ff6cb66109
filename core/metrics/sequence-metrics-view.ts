import * as t from "io-ts";
import { Id, NullableString, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import { PagePaginationView } from "../shared/page-pagination.js";
import { CampaignEventView } from "./email-metrics-views.js";
import { creditedStatsView } from "./view.js";

const SequenceStatsView = creditedStatsView("SequenceStats");

/** GET /metrics/sequences/{sequenceId} (compat-reference §16). */
export const SequenceMetricsView = view(
  {
    sequence: view({ id: Id, name: t.string, status: t.string }),
    period: view({ name: t.string, start: NullableTimestamp, end: NullableTimestamp }),
    stats: SequenceStatsView,
    steps: t.readonlyArray(
      view({
        step: t.number,
        nodeId: Id,
        subject: t.string,
        stats: SequenceStatsView,
        failedCount: t.number,
        failedSubscribers: t.readonlyArray(view({ subscriberId: Id, email: NullableString, failedAt: Timestamp, failedReason: NullableString })),
      }),
    ),
    enrollmentCounts: view({
      active: t.number,
      waiting: t.number,
      total: t.number,
      byCurrentNode: t.readonlyArray(
        view({
          currentNodeId: t.string,
          currentNodeType: NullableString,
          currentNodeLabel: NullableString,
          currentNodeMissing: t.boolean,
          active: t.number,
          waiting: t.number,
          total: t.number,
        }),
      ),
    }),
    enrollmentSkipped: view({ count: t.number, byReason: t.record(t.string, t.number) }),
  },
  "SequenceMetrics",
);

/** GET /metrics/sequences/{sequenceId}/events: the campaign event fields and the step of the send. */
export const SequenceEventsView = view(
  {
    events: t.readonlyArray(view({ ...CampaignEventView.type.props, automationNodeId: NullableString }, "SequenceEvent")),
    pagination: PagePaginationView,
  },
  "SequenceEvents",
);
