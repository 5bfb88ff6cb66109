import test from "ava";
import {
  transition,
  type AudienceEnrollment,
  type AudienceEnrollmentEvent,
  type AudienceEnrollmentStatus,
} from "../../../core/sequences/audience-enrollment.js";

const CREATED = new Date("2026-11-22T10:00:00.000Z");
const NOW = new Date("2026-11-22T10:05:00.000Z");

const run = (status: AudienceEnrollmentStatus, changes: Partial<AudienceEnrollment> = {}): AudienceEnrollment => ({
  id: "aen_1",
  companyId: "co_1",
  sequenceId: "seq_1",
  status,
  audience: { type: "all" },
  targetNodeId: null,
  estimatedCount: 250,
  processedCount: 100,
  enrolledCount: 90,
  skippedCount: 10,
  source: "api",
  error: null,
  cursor: "sub_100",
  createdAt: CREATED,
  updatedAt: CREATED,
  startedAt: status === "queued" ? null : CREATED,
  completedAt: status === "completed" || status === "cancelled" || status === "failed" ? CREATED : null,
  cancelRequestedAt: null,
  ...changes,
});

/** The spec's cancel table, row by row. */
const CANCEL: ReadonlyArray<[AudienceEnrollmentStatus, Partial<AudienceEnrollment> | string]> = [
  ["queued", { status: "cancelled", completedAt: NOW, cancelRequestedAt: NOW }],
  ["running", { status: "running", completedAt: null, cancelRequestedAt: NOW }],
  ["completed", "Audience enrollment is already completed and cannot be cancelled"],
  ["cancelled", "Audience enrollment is already cancelled and cannot be cancelled"],
  ["failed", "Audience enrollment is already failed and cannot be cancelled"],
];

for (const [status, expected] of CANCEL) {
  test(`audience enrollment: cancel when ${status}`, (t) => {
    const result = transition(run(status), { type: "cancel" }, NOW);
    if (typeof expected === "string") {
      t.is(result._tag, "Left");
      if (result._tag === "Left") t.like(result.left, { _tag: "InvalidState", message: expected });
    } else {
      t.is(result._tag, "Right");
      if (result._tag === "Right") t.like(result.right, { ...expected, processedCount: 100, enrolledCount: 90 });
    }
  });
}

test("audience enrollment: a second cancel request keeps the first time", (t) => {
  const first = new Date("2026-11-22T10:01:00.000Z");
  const result = transition(run("running", { cancelRequestedAt: first }), { type: "cancel" }, NOW);
  t.like(result, { _tag: "Right", right: { status: "running", cancelRequestedAt: first } });
});

const MOVES: ReadonlyArray<[AudienceEnrollmentStatus, AudienceEnrollmentEvent, Partial<AudienceEnrollment> | null]> = [
  ["queued", { type: "start" }, { status: "running", startedAt: NOW }],
  ["running", { type: "start" }, null],
  ["running", { type: "batch", enrolled: 95, skipped: 5, cursor: "sub_200" }, { processedCount: 200, enrolledCount: 185, skippedCount: 15, cursor: "sub_200" }],
  ["queued", { type: "batch", enrolled: 1, skipped: 0, cursor: "sub_1" }, null],
  ["running", { type: "exhausted" }, { status: "completed", completedAt: NOW }],
  ["running", { type: "stop" }, null],
  ["running", { type: "fail", error: "gone" }, { status: "failed", error: "gone", completedAt: NOW }],
  ["completed", { type: "fail", error: "gone" }, null],
];

for (const [status, event, expected] of MOVES) {
  test(`audience enrollment: ${event.type} when ${status}`, (t) => {
    const result = transition(run(status), event, NOW);
    if (expected === null) t.is(result._tag, "Left");
    else t.like(result, { _tag: "Right", right: expected });
  });
}

test("audience enrollment: a running run with a cancel request stops as cancelled", (t) => {
  const result = transition(run("running", { cancelRequestedAt: CREATED }), { type: "stop" }, NOW);
  t.like(result, { _tag: "Right", right: { status: "cancelled", completedAt: NOW, cancelRequestedAt: CREATED } });
});
