/**
 * Sending in each recipient's timezone: a campaign scheduled for 09:00 in its scheduledTimezone
 * reaches each contact at 09:00 on the same date where the contact lives (its `timezone`, else
 * the campaign's), so the first messages go where clocks are furthest ahead.
 */

/** Where clocks are furthest ahead (UTC+14): the first place a wall-clock time comes. */
const EARLIEST_ZONE = "Pacific/Kiritimati";

const formats = new Map<string, Intl.DateTimeFormat>();

/** The format of a zone, or null when the name is not an IANA timezone. */
export function formatOf(zone: string): Intl.DateTimeFormat | null {
  let format = formats.get(zone);
  if (format === undefined) {
    try {
      format = new Intl.DateTimeFormat("en-US", {
        timeZone: zone,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
      });
    } catch {
      return null;
    }
    formats.set(zone, format);
  }
  return format;
}

export const isTimeZone = (zone: string): boolean => formatOf(zone) !== null;

/** What clocks in `zone` show at `instant`, written as a UTC time (so it can be compared and shifted). */
export function wallClock(instant: number, format: Intl.DateTimeFormat): number {
  const parts = Object.fromEntries(format.formatToParts(new Date(instant)).map((part) => [part.type, Number(part.value)]));
  return Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second, new Date(instant).getUTCMilliseconds());
}

/** The instant clocks in a zone show `wall` (an hour skipped by a clock change: the hour after). */
export function instantOf(wall: number, format: Intl.DateTimeFormat): number {
  const first = wall - (wallClock(wall, format) - wall);
  // Once more with the offset in force at the first guess: right across a clock change.
  return wall - (wallClock(first, format) - first);
}

/**
 * When a recipient in `zone` (null, or not a timezone: the campaign's own) gets a campaign
 * scheduled at `scheduledAt` in `scheduledTimezone`.
 */
export function dueInZone(scheduledAt: Date, scheduledTimezone: string, zone: string | null): Date {
  const campaignZone = formatOf(scheduledTimezone);
  if (!campaignZone) return scheduledAt;
  const recipientZone = (zone !== null ? formatOf(zone) : null) ?? campaignZone;
  return new Date(instantOf(wallClock(scheduledAt.getTime(), campaignZone), recipientZone));
}

/** When the first recipients anywhere are due: the send starts (and its audience is frozen) then. */
export const earliestDue = (scheduledAt: Date, scheduledTimezone: string): Date => dueInZone(scheduledAt, scheduledTimezone, EARLIEST_ZONE);
