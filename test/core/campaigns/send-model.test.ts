import test from "ava";
import { afterThrottle, batchSizeFor, exclusionAtBatch, nextBatchAt } from "../../../core/campaigns/send-model.js";

const at = (iso: string) => new Date(iso);
const NOW = at("2026-11-22T10:00:00.000Z");

test("batch size: the setting, smaller within a spread (at most one batch a minute) and within a throttle's minute", (t) => {
  const cases: Array<[number, number | null, number | null, number]> = [
    // recipients, spreadOverHours, perMinute, size
    [100_000, null, null, 500],
    [3, 1, null, 1],
    [60_000, 1, null, 500],
    [6_000, 1, null, 100],
    [6_001, 1, null, 101],
    [100_000, null, 120, 120],
    [6_000, 1, 50, 50],
    [0, 2, null, 1],
  ];
  for (const [recipients, spreadOverHours, perMinute, size] of cases) {
    t.is(batchSizeFor(recipients, { batchSize: 500, spreadOverHours, perMinute }), size, JSON.stringify({ recipients, spreadOverHours, perMinute }));
  }
});

test("next batch: at once without a spread; within one, the batches left share what is left of the window", (t) => {
  t.deepEqual(nextBatchAt({ now: NOW, windowEndsAt: null, batchesLeft: 9 }), NOW);
  t.deepEqual(nextBatchAt({ now: NOW, windowEndsAt: at("2026-11-22T11:00:00.000Z"), batchesLeft: 2 }), at("2026-11-22T10:30:00.000Z"));
  t.deepEqual(nextBatchAt({ now: NOW, windowEndsAt: at("2026-11-22T11:00:00.000Z"), batchesLeft: 1 }), at("2026-11-22T11:00:00.000Z"));
  t.deepEqual(nextBatchAt({ now: NOW, windowEndsAt: at("2026-11-22T11:00:00.000Z"), batchesLeft: 0 }), NOW, "nothing left: the end comes at once");
  t.deepEqual(nextBatchAt({ now: NOW, windowEndsAt: at("2026-11-22T09:00:00.000Z"), batchesLeft: 3 }), NOW, "a window gone by (a long pause): at once");
});

test("throttle: messages sent now push the scope's next free time by messages / rate minutes, from now or from when it was free", (t) => {
  t.deepEqual(afterThrottle({ now: NOW, freeFrom: null, messages: 2, perMinute: 2 }), at("2026-11-22T10:01:00.000Z"));
  t.deepEqual(afterThrottle({ now: NOW, freeFrom: at("2026-11-22T09:00:00.000Z"), messages: 30, perMinute: 60 }), at("2026-11-22T10:00:30.000Z"));
  t.deepEqual(afterThrottle({ now: NOW, freeFrom: at("2026-11-22T10:05:00.000Z"), messages: 60, perMinute: 60 }), at("2026-11-22T10:06:00.000Z"));
});

test("a recipient at its batch: deleted, unsubscribed or bounced (as a contact or a suppression), suppressed, unconfirmed, else sent", (t) => {
  const cases: Array<[Parameters<typeof exclusionAtBatch>[0], ReturnType<typeof exclusionAtBatch>]> = [
    [{ contactStatus: null, suppression: null, unconfirmed: false }, "deleted"],
    [{ contactStatus: "unsubscribed", suppression: null, unconfirmed: false }, "unsubscribed"],
    [{ contactStatus: "active", suppression: "unsubscribe", unconfirmed: false }, "unsubscribed"],
    [{ contactStatus: "bounced", suppression: null, unconfirmed: false }, "bounced"],
    [{ contactStatus: "active", suppression: "hard_bounce", unconfirmed: false }, "bounced"],
    [{ contactStatus: "active", suppression: "complaint", unconfirmed: false }, "suppressed"],
    [{ contactStatus: "active", suppression: "manual", unconfirmed: true }, "suppressed"],
    [{ contactStatus: "active", suppression: null, unconfirmed: true }, "unconfirmed"],
    [{ contactStatus: "active", suppression: null, unconfirmed: false }, null],
  ];
  for (const [input, expected] of cases) t.is(exclusionAtBatch(input), expected, JSON.stringify(input));
});
