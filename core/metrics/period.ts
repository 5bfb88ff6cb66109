import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";

/** The named periods a metrics request can ask for, ending now. */
export const PERIODS = ["1h", "24h", "7d", "30d", "90d"] as const;
export type PeriodName = (typeof PERIODS)[number];

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LENGTH: Readonly<Record<PeriodName, number>> = { "1h": HOUR, "24h": DAY, "7d": 7 * DAY, "30d": 30 * DAY, "90d": 90 * DAY };

/** Longest custom range (start with end). */
export const MAX_RANGE_DAYS = 90;

/**
 * The sends a metrics request covers: those sent from `start` to `end`, both included; a null
 * bound is open (the all-time transactional window).
 */
export interface MetricsWindow {
  /** A named period, `custom` for start+end, `all` for all time. */
  readonly name: PeriodName | "custom" | "all";
  readonly start: Date | null;
  readonly end: Date | null;
}

/** Every send ever made (the transactional default). */
export const ALL_TIME: MetricsWindow = { name: "all", start: null, end: null };

export interface PeriodInput {
  readonly period?: PeriodName | undefined;
  readonly start?: Date | undefined;
  readonly end?: Date | undefined;
}

export const START_END_TOGETHER = "start and end must be used together";
export const START_BEFORE_END = "start must be before end";
export const RANGE_TOO_LONG = `The date range must be at most ${MAX_RANGE_DAYS} days`;

/**
 * Start and end win over period; without either, `fallback` applies (a period, or `all`).
 * Fixed ranges do not depend on the clock, so the same request gives the same window.
 */
export function resolveWindow(input: PeriodInput, now: Date, fallback: PeriodName | "all"): Result<MetricsWindow> {
  const { start, end } = input;
  if ((start === undefined) !== (end === undefined)) return fail(badRequest(START_END_TOGETHER));
  if (start && end) {
    if (start.getTime() >= end.getTime()) return fail(badRequest(START_BEFORE_END));
    if (end.getTime() - start.getTime() > MAX_RANGE_DAYS * DAY) return fail(badRequest(RANGE_TOO_LONG));
    return ok({ name: "custom", start, end });
  }
  const name = input.period ?? fallback;
  if (name === "all") return ok(ALL_TIME);
  return ok({ name, start: new Date(now.getTime() - LENGTH[name]), end: now });
}

export const windowView = (window: MetricsWindow) => ({
  name: window.name,
  start: window.start?.toISOString() ?? null,
  end: window.end?.toISOString() ?? null,
});
