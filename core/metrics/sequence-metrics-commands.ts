import * as t from "io-ts";
import { BooleanFromString, boundedText, IsoDate, oneOf, optional, TrimmedNonEmpty } from "../shared/codecs.js";
import { commaListOf } from "../shared/comma-list.js";
import { pageFields } from "../shared/page-pagination.js";
import { MAX_METRICS_PAGE_LIMIT } from "./commands.js";
import { PERIODS, type PeriodName } from "./period.js";
import { CAMPAIGN_EVENT_TYPES } from "./ports.js";

/** GET /metrics/sequences/{sequenceId}: all time unless a range is given. */
export const SequenceMetricsQuery = t.exact(
  t.partial({
    period: optional(oneOf<PeriodName>(PERIODS, "Period")),
    start: optional(IsoDate),
    end: optional(IsoDate),
    includeMachineEngagement: optional(BooleanFromString),
  }),
  "SequenceMetricsQuery",
);
export type SequenceMetricsQuery = t.TypeOf<typeof SequenceMetricsQuery>;

export const SequenceMetricsPath = t.type({ sequenceId: TrimmedNonEmpty }, "SequenceMetricsPath");

/** GET /metrics/sequences/{sequenceId}/events: the campaign events query, and one step's sends with automationNodeId. */
export const SequenceEventsQuery = t.exact(
  t.partial({
    ...SequenceMetricsQuery.type.props,
    eventTypes: optional(commaListOf(CAMPAIGN_EVENT_TYPES, "SequenceEventTypes")),
    ...pageFields(MAX_METRICS_PAGE_LIMIT),
    automationNodeId: optional(boundedText(100)),
  }),
  "SequenceEventsQuery",
);
export type SequenceEventsQuery = t.TypeOf<typeof SequenceEventsQuery>;
