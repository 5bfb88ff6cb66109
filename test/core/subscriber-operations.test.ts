import test from "ava";
import {
  EVERYONE,
  MAX_RECORDED_FAILURES,
  RETENTION_MS,
  transition,
  type OperationEvent,
  type OperationStatus,
  type SubscriberOperation,
} from "../../core/subscriber-operations/model.js";

const CREATED = new Date("2026-11-22T10:00:00.000Z");
const NOW = new Date("2026-11-22T10:05:00.000Z");

const operation = (overrides: Partial<SubscriberOperation> = {}): SubscriberOperation => ({
  id: "sop_1",
  companyId: "cmp_1",
  kind: "add_tags",
  requestKey: "key-1",
  status: "queued",
  params: { tags: ["vip"], triggerAutomations: false, audience: EVERYONE },
  total: 0,
  processed: 0,
  succeeded: 0,
  failed: 0,
  error: null,
  failures: [],
  selectionComplete: false,
  cancelRequested: false,
  createdAt: CREATED,
  updatedAt: CREATED,
  completedAt: null,
  expiresAt: null,
  ...overrides,
});

const failuresOf = (count: number, from = 0) => Array.from({ length: count }, (_, i) => ({ subscriberId: `sub_${from + i}`, error: "Subscriber not found" }));

/** Every status against every event: the next status, or the refusal message. */
const TABLE: ReadonlyArray<{ from: OperationStatus; event: OperationEvent; state?: Partial<SubscriberOperation>; next: string }> = [
  { from: "queued", event: { type: "start" }, next: "running" },
  { from: "running", event: { type: "start" }, next: "Operation is running: cannot apply start" },
  { from: "completed", event: { type: "start" }, next: "Operation is completed: cannot apply start" },
  { from: "queued", event: { type: "cancel" }, next: "cancelled" },
  { from: "running", event: { type: "cancel" }, next: "cancelled" },
  { from: "completed", event: { type: "cancel" }, next: "Operation is already completed and cannot be cancelled" },
  { from: "failed", event: { type: "cancel" }, next: "Operation is already failed and cannot be cancelled" },
  { from: "cancelled", event: { type: "cancel" }, next: "Operation is already cancelled and cannot be cancelled" },
  { from: "queued", event: { type: "fail", error: "boom" }, next: "failed" },
  { from: "running", event: { type: "fail", error: "boom" }, next: "failed" },
  { from: "cancelled", event: { type: "fail", error: "boom" }, next: "Operation is cancelled: cannot apply fail" },
  { from: "completed", event: { type: "fail", error: "boom" }, next: "Operation is completed: cannot apply fail" },
  { from: "running", event: { type: "finish" }, state: { selectionComplete: true, total: 3, processed: 3 }, next: "completed" },
  {
    from: "running",
    event: { type: "finish" },
    state: { selectionComplete: false, total: 3, processed: 3 },
    next: "Operation is running: cannot apply finish",
  },
  { from: "running", event: { type: "finish" }, state: { selectionComplete: true, total: 3, processed: 2 }, next: "Operation is running: cannot apply finish" },
  { from: "queued", event: { type: "finish" }, state: { selectionComplete: true }, next: "Operation is queued: cannot apply finish" },
  { from: "running", event: { type: "selectionQueued", total: 500, complete: false }, next: "running" },
  { from: "queued", event: { type: "selectionQueued", total: 500, complete: false }, next: "Operation is queued: cannot apply selectionQueued" },
  { from: "cancelled", event: { type: "selectionQueued", total: 500, complete: false }, next: "Operation is cancelled: cannot apply selectionQueued" },
  { from: "running", event: { type: "batchProcessed", succeeded: 2, failures: [] }, state: { total: 2 }, next: "running" },
  {
    from: "cancelled",
    event: { type: "batchProcessed", succeeded: 2, failures: [] },
    state: { total: 2 },
    next: "Operation is cancelled: cannot apply batchProcessed",
  },
];

for (const row of TABLE) {
  test(`${row.from} + ${row.event.type}${row.state ? ` ${JSON.stringify(row.state)}` : ""} -> ${row.next}`, (t) => {
    const result = transition(operation({ status: row.from, ...row.state }), row.event, NOW);
    if (result._tag === "Left") {
      t.is(result.left._tag, "InvalidState");
      t.is(result.left.message, row.next);
    } else {
      t.is(result.right.status, row.next as OperationStatus);
      t.deepEqual(result.right.updatedAt, NOW);
    }
  });
}

test("ending an operation sets completedAt now and expiresAt 30 days later; a cancel is recorded; failing keeps the error", (t) => {
  const ended = (event: OperationEvent, from: OperationStatus, state: Partial<SubscriberOperation> = {}) => {
    const result = transition(operation({ status: from, ...state }), event, NOW);
    if (result._tag === "Left") throw new Error(result.left.message);
    return result.right;
  };
  const completed = ended({ type: "finish" }, "running", { selectionComplete: true, total: 1, processed: 1 });
  t.deepEqual(completed.completedAt, NOW);
  t.deepEqual(completed.expiresAt, new Date(NOW.getTime() + RETENTION_MS));
  t.is(RETENTION_MS, 30 * 86_400_000);
  t.is(completed.error, null);

  const cancelled = ended({ type: "cancel" }, "queued");
  t.true(cancelled.cancelRequested);
  t.deepEqual(cancelled.completedAt, NOW);
  t.deepEqual(cancelled.expiresAt, new Date(NOW.getTime() + RETENTION_MS));

  const failed = ended({ type: "fail", error: "boom" }, "running");
  t.is(failed.error, "boom");
  t.deepEqual(failed.completedAt, NOW);

  // Queued and running operations have neither.
  const started = ended({ type: "start" }, "queued");
  t.is(started.completedAt, null);
  t.is(started.expiresAt, null);
});

test("selection pages grow total and never shrink it; the last page completes the selection", (t) => {
  const first = transition(operation({ status: "running" }), { type: "selectionQueued", total: 500, complete: false }, NOW);
  if (first._tag === "Left") return t.fail(first.left.message);
  t.is(first.right.total, 500);
  t.false(first.right.selectionComplete);
  const last = transition(first.right, { type: "selectionQueued", total: 620, complete: true }, NOW);
  if (last._tag === "Left") return t.fail(last.left.message);
  t.is(last.right.total, 620);
  t.true(last.right.selectionComplete);
  t.is(transition(first.right, { type: "selectionQueued", total: 499, complete: false }, NOW)._tag, "Left", "total never shrinks");
  t.is(transition(last.right, { type: "selectionQueued", total: 700, complete: true }, NOW)._tag, "Left", "a complete selection takes no more pages");
});

test("batches add to the counters, keep only the first 20 failures, and never process more than the selection", (t) => {
  let current = operation({ status: "running", total: 60, selectionComplete: true });
  const batches = [
    { succeeded: 5, failures: failuresOf(15, 0) },
    { succeeded: 10, failures: failuresOf(10, 15) },
    { succeeded: 15, failures: failuresOf(5, 25) },
  ];
  for (const batch of batches) {
    const next = transition(current, { type: "batchProcessed", ...batch }, NOW);
    if (next._tag === "Left") return t.fail(next.left.message);
    current = next.right;
  }
  t.is(current.processed, 60);
  t.is(current.succeeded, 30);
  t.is(current.failed, 30);
  t.is(current.failures.length, MAX_RECORDED_FAILURES);
  t.deepEqual(current.failures, failuresOf(20, 0), "the first failures are the ones kept");
  t.is(transition(current, { type: "batchProcessed", succeeded: 1, failures: [] }, NOW)._tag, "Left", "processed cannot pass total");
  const finished = transition(current, { type: "finish" }, NOW);
  t.is(finished._tag === "Right" && finished.right.status, "completed");
});
