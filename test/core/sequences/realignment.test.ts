import test from "ava";
import type { Enrollment } from "../../../core/sequences/enrollment.js";
import type { Sequence } from "../../../core/sequences/model.js";
import { NO_COUNTS, planRun, tally } from "../../../core/sequences/realignment.js";

const NOW = new Date("2026-11-22T10:00:00.000Z"); // a Sunday
const MONDAY_9_PARIS = new Date("2026-11-23T08:00:00.000Z");

const sequence = (sendingWindow: Record<string, unknown> | null): Sequence =>
  ({
    id: "seq_1",
    companyId: "co_1",
    sendingWindow,
    graph: {
      nodes: [
        { id: "email", nodeType: "action_email", config: {} },
        { id: "delay", nodeType: "logic_delay", config: {} },
      ],
      edges: [],
    },
  }) as unknown as Sequence;

const run = (currentNodeId: string, dueAt: Date): Enrollment => ({ status: "waiting", currentNodeId, dueAt, waitUntil: dueAt }) as unknown as Enrollment;
const weekdays = {
  enabled: true,
  timezone: "Europe/Paris",
  days: ["monday", "tuesday", "wednesday", "thursday", "friday"],
  startTime: "09:00",
  endTime: "17:00",
};

test("a run waiting at an email moves to the window's next opening from now; at once without a window", (t) => {
  const later = new Date("2026-11-30T08:00:00.000Z");
  t.deepEqual(planRun(sequence(weekdays), run("email", later), NOW), { kind: "realign", from: later, to: MONDAY_9_PARIS });
  t.deepEqual(planRun(sequence(null), run("email", MONDAY_9_PARIS), NOW), { kind: "realign", from: MONDAY_9_PARIS, to: NOW });
  t.deepEqual(planRun(sequence({ ...weekdays, enabled: false }), run("email", MONDAY_9_PARIS), NOW), { kind: "realign", from: MONDAY_9_PARIS, to: NOW });
});

test("a run already at the window's time, or waiting elsewhere than an email, keeps its time", (t) => {
  t.deepEqual(planRun(sequence(weekdays), run("email", new Date(MONDAY_9_PARIS.getTime() + 400)), NOW), { kind: "unchanged", reason: "already_aligned" });
  t.deepEqual(planRun(sequence(null), run("delay", MONDAY_9_PARIS), NOW), { kind: "unchanged", reason: "not_waiting_for_sending_window" });
  t.deepEqual(planRun(sequence(null), run("gone", MONDAY_9_PARIS), NOW), { kind: "unchanged", reason: "not_waiting_for_sending_window" });
});

test("counts add up by kind and reason", (t) => {
  const counts = [
    { kind: "realign", from: NOW, to: NOW },
    { kind: "unchanged", reason: "already_aligned" },
    { kind: "unchanged", reason: "already_aligned" },
    { kind: "unchanged", reason: "not_waiting_for_sending_window" },
  ].reduce((sum, plan) => tally(sum, plan as Parameters<typeof tally>[1]), NO_COUNTS);
  t.deepEqual(counts, {
    scannedCount: 4,
    realignedCount: 1,
    unchangedCount: 3,
    unchangedReasons: { already_aligned: 2, not_waiting_for_sending_window: 1 },
    requeueFailedCount: 0,
  });
});
