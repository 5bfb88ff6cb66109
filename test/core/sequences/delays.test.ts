import test from "ava";
import { delayEnd } from "../../../core/sequences/delays.js";
import type { TaggedSubscriber } from "../../../core/subscribers/model.js";

const NOW = new Date("2026-11-22T10:00:00.000Z"); // a Sunday
const contact = (changes: Partial<TaggedSubscriber> = {}): TaggedSubscriber => ({
  id: "sub_1",
  companyId: "co_1",
  email: "ann@example.com",
  externalId: null,
  firstName: null,
  lastName: null,
  phone: null,
  smsStatus: "not_subscribed",
  status: "active",
  emailProvider: null,
  timezone: null,
  customAttributes: {},
  unsubscribedAt: null,
  createdAt: new Date("2026-11-01T00:00:00.000Z"),
  updatedAt: NOW,
  tags: [],
  ...changes,
});
const until = (end: ReturnType<typeof delayEnd>) => ("until" in end ? end.until.toISOString() : end);

test("durations in every form", (t) => {
  t.is(until(delayEnd({ delayDays: 1, delayHours: 2 }, contact(), NOW)), "2026-11-23T12:00:00.000Z");
  t.is(until(delayEnd({ delayMs: 90_000 }, contact(), NOW)), "2026-11-22T10:01:30.000Z");
  t.is(until(delayEnd({ delay: { minutes: 30 } }, contact(), NOW)), "2026-11-22T10:30:00.000Z");
});

test("until a date field: text or epoch milliseconds, createdAt, an offset before or after; a missing date continues or exits", (t) => {
  const renews = contact({ customAttributes: { renewsAt: "2026-12-01T09:00:00.000Z", trialEndsAt: Date.parse("2026-11-30T00:00:00.000Z") } });
  t.is(until(delayEnd({ waitUntil: { field: "renewsAt", offset: { hours: 3 }, direction: "after" } }, renews, NOW)), "2026-12-01T12:00:00.000Z");
  t.is(until(delayEnd({ waitUntil: { field: "customAttributes.trialEndsAt", offset: { days: 2 } } }, renews, NOW)), "2026-11-28T00:00:00.000Z");
  t.is(
    until(delayEnd({ delay: { mode: "until_date", untilDateField: "createdAt", days: 30, untilOffsetDirection: "after" } }, renews, NOW)),
    "2026-12-01T00:00:00.000Z",
  );
  t.deepEqual(delayEnd({ waitUntil: { field: "renewsAt" } }, contact(), NOW), { missing: "continue", reason: "the contact has no date in 'renewsAt'" });
  t.deepEqual(delayEnd({ waitUntil: { field: "plan", missingAction: "exit" } }, contact({ customAttributes: { plan: "pro" } }), NOW), {
    missing: "exit",
    reason: "the contact has no date in 'plan'",
  });
});

test("until a weekday window: the node's time zone, else the contact's, else UTC", (t) => {
  const monday9 = { waitUntilWeekday: { day: "monday", startTime: "09:00" } };
  t.is(until(delayEnd(monday9, contact(), NOW)), "2026-11-23T09:00:00.000Z");
  t.is(until(delayEnd(monday9, contact({ timezone: "Asia/Tokyo" }), NOW)), "2026-11-23T00:00:00.000Z");
  t.is(
    until(delayEnd({ waitUntilWeekday: { ...monday9.waitUntilWeekday, timezone: "Europe/Paris" } }, contact({ timezone: "Asia/Tokyo" }), NOW)),
    "2026-11-23T08:00:00.000Z",
  );
  t.is(until(delayEnd({ delay: { mode: "until_weekday", untilDays: ["sunday"] } }, contact(), NOW)), NOW.toISOString(), "open now: no wait");
});
