import { WEEKDAYS } from "./node-configs.js";

/**
 * Weekly opening hours in a time zone: the days a window opens on and its hours, as sending
 * windows and weekday delays give them. A window whose end is not after its start runs overnight
 * (22:00-06:00 opens on its day and closes the next morning).
 */
export interface WeeklyWindow {
  readonly timezone: string;
  /** Lower-case English weekday names; the window opens on these days. */
  readonly days: readonly string[];
  /** HH:MM, 00:00 to 23:59. */
  readonly startTime: string;
  /** HH:MM, 00:00 to 24:00. */
  readonly endTime: string;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timezone: string): Intl.DateTimeFormat {
  let format = formatters.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: timezone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timezone, format);
  }
  return format;
}

/** The wall-clock time of `at` in `timezone`, as if it were UTC (milliseconds). */
function wallClock(at: number, timezone: string): number {
  const parts = { year: 0, month: 1, day: 1, hour: 0, minute: 0, second: 0 };
  for (const part of formatter(timezone).formatToParts(new Date(at))) if (part.type in parts) parts[part.type as keyof typeof parts] = Number(part.value);
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) + (at % 1000);
}

/** The instant at which the clocks of `timezone` show `wall` (a wall-clock time written as UTC). */
function instantOf(wall: number, timezone: string): number {
  // Two passes settle the offset on either side of a daylight-saving change.
  let guess = wall - (wallClock(wall, timezone) - wall);
  guess = wall - (wallClock(guess, timezone) - guess);
  return guess;
}

const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** The weekday name of a wall-clock day (UTC midnight of it). */
const weekdayOf = (day: number): string => WEEKDAYS[(new Date(day).getUTCDay() + 6) % 7]!;

/**
 * The first moment at or after `now` at which the window is open: `now` itself when it is open
 * now. Null when it never opens (no day).
 */
export function nextOpening(now: Date, window: WeeklyWindow): Date | null {
  if (window.days.length === 0) return null;
  const wallNow = wallClock(now.getTime(), window.timezone);
  const today = Math.floor(wallNow / DAY_MS) * DAY_MS;
  const start = minutesOf(window.startTime) * MINUTE_MS;
  const end = minutesOf(window.endTime) * MINUTE_MS;
  // Yesterday's overnight window may still be open; a week and a day ahead always holds an opening.
  for (let offset = -1; offset <= 8; offset++) {
    const day = today + offset * DAY_MS;
    if (!window.days.includes(weekdayOf(day))) continue;
    const opens = instantOf(day + start, window.timezone);
    const closes = instantOf(day + end + (end <= start ? DAY_MS : 0), window.timezone);
    if (now.getTime() < opens) return new Date(opens);
    if (now.getTime() < closes) return now;
  }
  return null;
}

/** The wall-clock date and time of `at` in `timezone`, as `YYYY-MM-DDTHH:MM` (for messages). */
export function localTime(at: Date, timezone: string): string {
  return new Date(wallClock(at.getTime(), timezone)).toISOString().slice(0, 16);
}
