import * as t from "io-ts";
import { Id, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import { oneOf } from "../shared/codecs.js";

const Bucket = view({ start: Timestamp, views: t.number, botViews: t.number, conversions: t.number }, "LandingStatsBucket");

/** GET /landing-pages/{id}/stats. */
export const LandingStatsView = view(
  {
    landingPageId: Id,
    period: view({ name: t.string, start: NullableTimestamp, end: NullableTimestamp }, "LandingStatsPeriod"),
    includeBots: t.boolean,
    stats: view({ views: t.number, botViews: t.number, conversions: t.number, conversionRate: t.number }, "LandingStats"),
    granularity: oneOf(["hour", "day"] as const, "LandingStatsGranularity"),
    series: t.readonlyArray(Bucket),
  },
  "LandingPageStats",
);
export type LandingStatsView = t.TypeOf<typeof LandingStatsView>;
