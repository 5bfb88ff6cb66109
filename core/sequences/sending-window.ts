import type { Sequence } from "./model.js";
import { WEEKDAYS } from "./node-configs.js";
import { nextOpening, type WeeklyWindow } from "./time-windows.js";

/**
 * A sequence's `sendingWindow` (compat-reference §10) as weekly opening hours: UTC unless it names
 * a time zone, every day unless it names days, all day unless it names hours. Null when the
 * sequence has none or it is turned off (`enabled: false`).
 */
export function sendingWindowOf(sequence: Sequence): WeeklyWindow | null {
  const window = sequence.sendingWindow;
  if (!window || window.enabled === false) return null;
  return {
    timezone: typeof window.timezone === "string" ? window.timezone : "UTC",
    days: Array.isArray(window.days) ? (window.days as string[]) : WEEKDAYS,
    startTime: typeof window.startTime === "string" ? window.startTime : "00:00",
    endTime: typeof window.endTime === "string" ? window.endTime : "24:00",
  };
}

/** Why the sending window can never open (null when it can). */
export function sendingWindowProblem(sequence: Sequence): string | null {
  const window = sendingWindowOf(sequence);
  return window && window.days.length === 0 ? "sendingWindow has no days: emails could never be sent (give days, or null to remove it)" : null;
}

/** When an email step due at `now` may be sent: `now` inside the window, else its next opening. */
export function sendingTime(sequence: Sequence, now: Date): Date {
  const window = sendingWindowOf(sequence);
  return window ? (nextOpening(now, window) ?? now) : now;
}
