import * as t from "io-ts";
import { BooleanFromString, IsoDate, oneOf, optional, TrimmedNonEmpty } from "../shared/codecs.js";
import { PERIODS, type PeriodName } from "./period.js";

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
