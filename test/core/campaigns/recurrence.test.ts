import test from "ava";
import { nextOccurrence, occurrenceAt } from "../../../core/campaigns/recurrence.js";

const at = (iso: string) => new Date(iso);
const iso = (date: Date) => date.toISOString();

test("weekly: the same weekday and UTC time each week without a timezone", (t) => {
  const anchor = at("2026-11-22T11:00:00.000Z");
  t.deepEqual(
    [0, 1, 2, 6].map((n) => iso(occurrenceAt(anchor, "weekly", null, n))),
    ["2026-11-22T11:00:00.000Z", "2026-11-29T11:00:00.000Z", "2026-12-06T11:00:00.000Z", "2027-01-03T11:00:00.000Z"],
  );
});

test("weekly in a timezone: the wall-clock time stays across a clock change", (t) => {
  // 09:00 in Paris: UTC+1 in winter, UTC+2 from 28 March 2027.
  const anchor = at("2027-03-21T08:00:00.000Z");
  t.is(iso(occurrenceAt(anchor, "weekly", "Europe/Paris", 1)), "2027-03-28T07:00:00.000Z");
  t.is(iso(occurrenceAt(anchor, "weekly", "Europe/Paris", 2)), "2027-04-04T07:00:00.000Z");
});

test("monthly: the anchor's day of month, the last day of a shorter month, and no drift after it", (t) => {
  const anchor = at("2027-01-31T08:00:00.000Z"); // 09:00 in Paris
  t.deepEqual(
    [1, 2, 3, 13].map((n) => iso(occurrenceAt(anchor, "monthly", "Europe/Paris", n))),
    ["2027-02-28T08:00:00.000Z", "2027-03-31T07:00:00.000Z", "2027-04-30T07:00:00.000Z", "2028-02-29T08:00:00.000Z"],
  );
  t.is(iso(occurrenceAt(at("2026-12-15T10:30:00.000Z"), "monthly", null, 1)), "2027-01-15T10:30:00.000Z");
});

test("the next occurrence comes after the current one and after now: dates missed by a late send are skipped", (t) => {
  const anchor = at("2026-11-22T11:00:00.000Z");
  const input = { anchor, interval: "weekly" as const, timezone: null };
  t.is(iso(nextOccurrence({ ...input, current: at("2026-11-29T11:00:00.000Z"), now: at("2026-11-29T11:05:00.000Z") })), "2026-12-06T11:00:00.000Z");
  t.is(iso(nextOccurrence({ ...input, current: anchor, now: at("2026-12-10T00:00:00.000Z") })), "2026-12-13T11:00:00.000Z");
  // Exactly at an occurrence's time: that one is due now, so the one after.
  t.is(iso(nextOccurrence({ ...input, current: anchor, now: at("2026-11-29T11:00:00.000Z") })), "2026-12-06T11:00:00.000Z");
});
