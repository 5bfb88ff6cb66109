import test from "ava";
import { nextOpening, type WeeklyWindow } from "../../../core/sequences/time-windows.js";

const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday"];
const office: WeeklyWindow = { timezone: "Europe/Paris", days: WEEKDAYS, startTime: "09:00", endTime: "17:00" };
const opening = (now: string, window: WeeklyWindow) => nextOpening(new Date(now), window)?.toISOString() ?? null;

test("inside the window it is open now; before, after or on a closed day, at the next opening", (t) => {
  t.is(opening("2026-11-23T10:00:00.000Z", office), "2026-11-23T10:00:00.000Z", "Monday 11:00 in Paris");
  t.is(opening("2026-11-23T07:00:00.000Z", office), "2026-11-23T08:00:00.000Z", "Monday 08:00 -> 09:00");
  t.is(opening("2026-11-23T16:00:00.000Z", office), "2026-11-24T08:00:00.000Z", "Monday 17:00 is closed -> Tuesday 09:00");
  t.is(opening("2026-11-27T18:00:00.000Z", office), "2026-11-30T08:00:00.000Z", "Friday evening -> Monday");
  t.is(opening("2026-11-22T10:00:00.000Z", { ...office, days: [] }), null, "no day: never open");
});

test("the opening is on the time zone's clock across a daylight-saving change", (t) => {
  // Paris moves from UTC+2 to UTC+1 on Sunday 25 October 2026.
  t.is(opening("2026-10-23T20:00:00.000Z", office), "2026-10-26T08:00:00.000Z", "Monday 09:00 in winter time");
  t.is(opening("2026-10-22T20:00:00.000Z", office), "2026-10-23T07:00:00.000Z", "Friday 09:00 in summer time");
  const newYork: WeeklyWindow = { timezone: "America/New_York", days: ["sunday"], startTime: "09:00", endTime: "10:00" };
  t.is(opening("2026-11-01T00:00:00.000Z", newYork), "2026-11-01T14:00:00.000Z", "the day New York leaves summer time");
});

test("a window that ends before it starts runs overnight into the next day; 24:00 is the end of the day", (t) => {
  const night: WeeklyWindow = { timezone: "UTC", days: ["friday"], startTime: "22:00", endTime: "06:00" };
  t.is(opening("2026-11-28T03:00:00.000Z", night), "2026-11-28T03:00:00.000Z", "Saturday 03:00 is still Friday night");
  t.is(opening("2026-11-28T07:00:00.000Z", night), "2026-12-04T22:00:00.000Z", "Saturday morning -> next Friday night");
  const evening: WeeklyWindow = { timezone: "UTC", days: ["monday"], startTime: "18:00", endTime: "24:00" };
  t.is(opening("2026-11-23T23:59:00.000Z", evening), "2026-11-23T23:59:00.000Z");
  t.is(opening("2026-11-24T00:00:00.000Z", evening), "2026-11-30T18:00:00.000Z");
});
