import type { TaggedSubscriber } from "../subscribers/model.js";
import { fieldValue } from "./contact-conditions.js";
import { nextOpening } from "./time-windows.js";

const MINUTE_MS = 60_000;

type Config = Readonly<Record<string, unknown>>;

const minutes = (parts: Config | undefined): number => Number(parts?.days ?? 0) * 1440 + Number(parts?.hours ?? 0) * 60 + Number(parts?.minutes ?? 0);

/** A logic_delay's duration (the forms enable accepts: delayDays/Hours/Minutes, delayMs, delay in duration mode). */
export function delayMs(config: Config): number {
  if (typeof config.delayMs === "number") return config.delayMs;
  const parts = (config.delay as Config | undefined) ?? { days: config.delayDays, hours: config.delayHours, minutes: config.delayMinutes };
  return minutes(parts) * MINUTE_MS;
}

/** When a delay ends for this contact, or, for a date field the contact lacks, what to do instead. */
export type DelayEnd = { readonly until: Date } | { readonly missing: "continue" | "exit"; readonly reason: string };

/** A date held by a contact field: an ISO 8601 text or epoch milliseconds; null when it is neither. */
function dateOf(contact: TaggedSubscriber, field: string): Date | null {
  const value = field === "createdAt" ? contact.createdAt : field === "updatedAt" ? contact.updatedAt : fieldValue(contact, field);
  if (value instanceof Date) return value;
  if (typeof value !== "string" && typeof value !== "number") return null;
  const date = new Date(typeof value === "string" ? value.trim() : value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Until a date field of the contact, moved by an offset before or after it (before by default). */
function untilDate(contact: TaggedSubscriber, field: string, offset: Config | undefined, direction: unknown, missingAction: unknown): DelayEnd {
  const date = dateOf(contact, field);
  if (!date) return { missing: missingAction === "exit" ? "exit" : "continue", reason: `the contact has no date in '${field}'` };
  const shift = minutes(offset) * MINUTE_MS * (direction === "after" ? 1 : -1);
  return { until: new Date(date.getTime() + shift) };
}

/** Until the next opening of a weekday/time window; the contact's time zone when the node names none, else UTC. */
function untilWeekday(contact: TaggedSubscriber, now: Date, days: readonly string[], start: unknown, end: unknown, timezone: unknown): DelayEnd {
  const zone = typeof timezone === "string" ? timezone : (contact.timezone ?? "UTC");
  const opening = nextOpening(now, {
    timezone: zone,
    days,
    startTime: typeof start === "string" ? start : "00:00",
    endTime: typeof end === "string" ? end : "24:00",
  });
  return { until: opening ?? now };
}

/**
 * When a logic_delay that starts now ends, in every form the node takes: a duration, until a date
 * field (`delay` mode until_date, `waitUntil`), or until a weekday window (`delay` mode
 * until_weekday, `waitUntilWeekday`). An end already passed means no wait.
 */
export function delayEnd(config: Config, contact: TaggedSubscriber, now: Date): DelayEnd {
  const waitUntil = config.waitUntil as Config | undefined;
  if (waitUntil) return untilDate(contact, String(waitUntil.field), waitUntil.offset as Config | undefined, waitUntil.direction, waitUntil.missingAction);
  const weekday = config.waitUntilWeekday as Config | undefined;
  if (weekday) {
    const days = (weekday.days as string[] | undefined) ?? [String(weekday.day)];
    return untilWeekday(contact, now, days, weekday.startTime, weekday.endTime, weekday.timezone);
  }
  const delay = config.delay as Config | undefined;
  if (delay?.mode === "until_date") return untilDate(contact, String(delay.untilDateField), delay, delay.untilOffsetDirection, delay.untilMissingAction);
  if (delay?.mode === "until_weekday")
    return untilWeekday(contact, now, delay.untilDays as string[], delay.untilStartTime, delay.untilEndTime, delay.untilTimezone);
  return { until: new Date(now.getTime() + delayMs(config)) };
}
