import type { RecurringInterval } from "./model.js";
import { formatOf, instantOf, wallClock } from "./recipient-time.js";

/**
 * When the occurrences of a recurring campaign fall: the n-th after the anchor (the series' first
 * scheduledAt) is n weeks or n calendar months later, at the anchor's wall-clock time in the
 * campaign's timezone (so 09:00 stays 09:00 across clock changes), a monthly one on the anchor's
 * day of month or, in a shorter month, its last day (31 Jan, 28 Feb, 31 Mar: no drift).
 */

const DAY_MS = 86_400_000;
/** A series is walked from its anchor; this bounds the walk (about 190 years of weekly sends). */
const MAX_STEPS = 10_000;

/** The n-th occurrence after the anchor (n = 0: the anchor itself). */
export function occurrenceAt(anchor: Date, interval: RecurringInterval, timezone: string | null, n: number): Date {
  const zone = (timezone !== null ? formatOf(timezone) : null) ?? formatOf("UTC")!;
  const wall = new Date(wallClock(anchor.getTime(), zone));
  const time = wall.getTime() % DAY_MS;
  let day: number;
  if (interval === "weekly") {
    day = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate() + 7 * n);
  } else {
    const month = wall.getUTCMonth() + n;
    // Day 0 of the month after is the month's last day.
    const lastDay = new Date(Date.UTC(wall.getUTCFullYear(), month + 1, 0)).getUTCDate();
    day = Date.UTC(wall.getUTCFullYear(), month, Math.min(wall.getUTCDate(), lastDay));
  }
  return new Date(instantOf(day + time, zone));
}

/**
 * The occurrence after one scheduled at `current`: the first of the series later than both
 * `current` and `now` (occurrences missed while a send ran late are skipped, not sent in a burst).
 */
export function nextOccurrence(input: {
  readonly anchor: Date;
  readonly interval: RecurringInterval;
  readonly timezone: string | null;
  readonly current: Date;
  readonly now: Date;
}): Date {
  const after = Math.max(input.current.getTime(), input.now.getTime());
  for (let n = 1; n <= MAX_STEPS; n += 1) {
    const at = occurrenceAt(input.anchor, input.interval, input.timezone, n);
    if (at.getTime() > after) return at;
  }
  throw new Error("the recurring campaign's anchor is too far in the past");
}
