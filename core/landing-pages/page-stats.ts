import { rate } from "../metrics/model.js";
import type { MetricsWindow } from "../metrics/period.js";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** One hour of a page's traffic (migration 0046): people's views, crawlers' views and signups. */
export interface LandingHour {
  readonly hour: Date;
  readonly views: number;
  readonly botViews: number;
  readonly conversions: number;
}

/** The start of the hour (UTC) `at` falls in: traffic is counted by the hour. */
export const hourOf = (at: Date): Date => new Date(Math.floor(at.getTime() / HOUR) * HOUR);

/** Windows up to two days are shown hour by hour, longer ones day by day (UTC). */
export const HOURLY_UP_TO_MS = 2 * DAY;

export interface LandingBucket {
  readonly start: string;
  readonly views: number;
  readonly botViews: number;
  readonly conversions: number;
}

export interface LandingStats {
  readonly views: number;
  readonly botViews: number;
  readonly conversions: number;
  /** Conversions per 100 views, two decimals. */
  readonly conversionRate: number;
}

/**
 * The page's traffic over a window, in totals and in buckets from the window's first hour (or
 * day) to its last, empty ones included, so a chart needs no gaps filled. `views` are people's,
 * with crawlers' added when `includeBots`; `botViews` always shows the crawlers apart.
 */
export function landingStats(
  window: MetricsWindow & { readonly start: Date; readonly end: Date },
  hours: readonly LandingHour[],
  includeBots: boolean,
): { stats: LandingStats; granularity: "hour" | "day"; series: LandingBucket[] } {
  const granularity = window.end.getTime() - window.start.getTime() <= HOURLY_UP_TO_MS ? "hour" : "day";
  const size = granularity === "hour" ? HOUR : DAY;
  const first = Math.floor(window.start.getTime() / size) * size;
  const series: Array<{ start: number; views: number; botViews: number; conversions: number }> = [];
  for (let start = first; start <= window.end.getTime(); start += size) series.push({ start, views: 0, botViews: 0, conversions: 0 });
  for (const hour of hours) {
    const bucket = series[Math.floor((hour.hour.getTime() - first) / size)];
    if (!bucket) continue;
    bucket.views += hour.views + (includeBots ? hour.botViews : 0);
    bucket.botViews += hour.botViews;
    bucket.conversions += hour.conversions;
  }
  const sum = (field: "views" | "botViews" | "conversions") => series.reduce((total, bucket) => total + bucket[field], 0);
  const views = sum("views");
  const conversions = sum("conversions");
  return {
    stats: { views, botViews: sum("botViews"), conversions, conversionRate: rate(conversions, views) },
    granularity,
    series: series.map((bucket) => ({ ...bucket, start: new Date(bucket.start).toISOString() })),
  };
}
