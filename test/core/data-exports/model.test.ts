import test from "ava";
import { newRun, transitionRun, type RunEvent, type RunStatus } from "../../../core/data-exports/export-run.js";
import { newExport, retryDelayMs, transition, type DataExport, type ExportEvent, type ExportStatus } from "../../../core/data-exports/model.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function exportIn(status: ExportStatus, overrides: Partial<DataExport> = {}): DataExport {
  const created = newExport(
    {
      id: "dex_1",
      companyId: "co_1",
      name: "Lake",
      destination: {
        provider: "s3",
        bucket: "lake",
        region: "us-east-1",
        endpoint: null,
        pathPrefix: "",
        credentialType: "hmac",
        accessKeyId: "AKIA",
        secretSealed: "v1.x",
        keyFingerprint: null,
      },
      datasets: ["email_events"],
      frequency: "every_15_minutes",
      startFrom: NOW,
    },
    NOW,
  );
  return { ...created, status, ...overrides };
}

const table: Array<[string, DataExport, ExportEvent, ExportStatus | "refused"]> = [
  ["idle queues a run", exportIn("idle"), { type: "queue" }, "queued"],
  ["failed queues its retry", exportIn("failed", { lastError: "boom" }), { type: "queue" }, "queued"],
  ["queued does not queue a second run", exportIn("queued"), { type: "queue" }, "refused"],
  ["running does not queue a second run", exportIn("running"), { type: "queue" }, "refused"],
  ["paused queues nothing", exportIn("idle", { isEnabled: false }), { type: "queue" }, "refused"],
  ["deleted queues nothing", exportIn("idle", { deletedAt: NOW }), { type: "queue" }, "refused"],
  ["queued starts", exportIn("queued"), { type: "start" }, "running"],
  ["idle does not start", exportIn("idle"), { type: "start" }, "refused"],
  ["running counts progress", exportIn("running"), { type: "progress", rows: 5, watermarks: exportIn("idle").watermarks }, "running"],
  ["queued counts no progress", exportIn("queued"), { type: "progress", rows: 5, watermarks: exportIn("idle").watermarks }, "refused"],
  ["running succeeds", exportIn("running"), { type: "succeed" }, "idle"],
  ["queued does not succeed", exportIn("queued"), { type: "succeed" }, "refused"],
  ["running fails", exportIn("running"), { type: "fail", error: "denied" }, "failed"],
  ["idle does not fail", exportIn("idle"), { type: "fail", error: "denied" }, "refused"],
  ["a queued run is cancelled", exportIn("queued"), { type: "cancel" }, "idle"],
  ["a queued retry is cancelled back to failed", exportIn("queued", { lastError: "denied" }), { type: "cancel" }, "failed"],
  ["a deleted export's running run is cancelled", exportIn("running", { deletedAt: NOW }), { type: "cancel" }, "idle"],
  ["idle pauses", exportIn("idle"), { type: "pause" }, "idle"],
  ["running pauses and keeps running", exportIn("running"), { type: "pause" }, "running"],
  ["paused resumes", exportIn("idle", { isEnabled: false }), { type: "resume" }, "idle"],
  ["idle is deleted", exportIn("idle"), { type: "delete" }, "idle"],
  ["deleted is not deleted again", exportIn("idle", { deletedAt: NOW }), { type: "delete" }, "refused"],
];

for (const [title, from, event, expected] of table) {
  test(`data export transition: ${title}`, (t) => {
    const result = transition(from, event, NOW);
    if (expected === "refused") return t.is(result._tag, "Left");
    if (result._tag === "Left") return t.fail(result.left.message);
    t.is(result.right.status, expected);
  });
}

test("data export transition: create is queued, enabled, with no failures (spec table)", (t) => {
  const created = exportIn("queued");
  t.like(created, { status: "queued", isEnabled: true, consecutiveFailures: 0, totalRowsExported: 0, lastError: null, nextRunAt: NOW });
});

test("data export transition: a failure records the error and schedules the retry; a success clears lastError", (t) => {
  const started = new Date(NOW.getTime() + MINUTE);
  let current = exportIn("running", { lastRunAt: NOW });
  const apply = (event: ExportEvent, at: Date) => {
    const next = transition(current, event, at);
    if (next._tag === "Left") throw new Error(next.left.message);
    current = next.right;
  };
  apply({ type: "fail", error: "Access denied" }, started);
  t.like(current, { status: "failed", lastError: "Access denied", lastErrorAt: started, consecutiveFailures: 1 });
  t.deepEqual(current.nextRunAt, new Date(started.getTime() + 15 * MINUTE));
  apply({ type: "queue" }, started);
  apply({ type: "start" }, started);
  apply({ type: "fail", error: "Access denied" }, started);
  t.is(current.consecutiveFailures, 2);
  t.deepEqual(current.nextRunAt, new Date(started.getTime() + 30 * MINUTE));
  apply({ type: "queue" }, started);
  apply({ type: "start" }, started);
  apply({ type: "progress", rows: 42, watermarks: current.watermarks }, started);
  apply({ type: "succeed" }, started);
  t.like(current, { status: "idle", lastError: null, lastErrorAt: started, consecutiveFailures: 0, totalRowsExported: 42, lastSuccessAt: started });
  // The next run is one interval after this run started.
  t.deepEqual(current.nextRunAt, new Date(started.getTime() + 15 * MINUTE));
});

test("data export transition: a paused export has no next run, and gets one back on resume", (t) => {
  const paused = transition(exportIn("idle", { nextRunAt: NOW }), { type: "pause" }, NOW);
  if (paused._tag === "Left") return t.fail();
  t.like(paused.right, { isEnabled: false, nextRunAt: null });
  const failed = transition({ ...paused.right, status: "running" }, { type: "fail", error: "x" }, NOW);
  if (failed._tag === "Left") return t.fail();
  t.is(failed.right.nextRunAt, null);
  const later = new Date(NOW.getTime() + HOUR);
  const resumed = transition(paused.right, { type: "resume" }, later);
  if (resumed._tag === "Left") return t.fail();
  t.like(resumed.right, { isEnabled: true, nextRunAt: later });
});

test("retry back-off: exponential from the frequency, capped at 6 hours", (t) => {
  t.is(retryDelayMs("every_5_minutes", 1), 5 * MINUTE);
  t.is(retryDelayMs("every_5_minutes", 2), 10 * MINUTE);
  t.is(retryDelayMs("every_5_minutes", 3), 20 * MINUTE);
  t.is(retryDelayMs("every_5_minutes", 7), 320 * MINUTE);
  t.is(retryDelayMs("every_5_minutes", 8), 6 * HOUR);
  t.is(retryDelayMs("every_5_minutes", 50), 6 * HOUR);
  t.is(retryDelayMs("every_15_minutes", 1), 15 * MINUTE);
  t.is(retryDelayMs("every_15_minutes", 5), 240 * MINUTE);
  t.is(retryDelayMs("every_15_minutes", 6), 6 * HOUR);
  t.is(retryDelayMs("hourly", 1), HOUR);
  t.is(retryDelayMs("hourly", 3), 4 * HOUR);
  t.is(retryDelayMs("hourly", 4), 6 * HOUR);
  t.is(retryDelayMs("daily", 1), 6 * HOUR);
});

const run = (status: RunStatus) => ({ ...newRun("dxr_1", "co_1", "dex_1", "created", NOW), status });
const file = { dataset: "email_events" as const, key: "k", rows: 3, bytes: 10, firstRecordedAt: null, lastRecordedAt: null };
const runTable: Array<[string, RunStatus, RunEvent, RunStatus | "refused"]> = [
  ["queued starts", "queued", { type: "start" }, "running"],
  ["running does not start again", "running", { type: "start" }, "refused"],
  ["running writes a file", "running", { type: "fileWritten", file, through: null }, "running"],
  ["queued writes no file", "queued", { type: "fileWritten", file, through: null }, "refused"],
  ["running succeeds", "running", { type: "succeed" }, "succeeded"],
  ["running fails", "running", { type: "fail", error: "x" }, "failed"],
  ["succeeded does not fail", "succeeded", { type: "fail", error: "x" }, "refused"],
  ["queued is cancelled", "queued", { type: "cancel" }, "canceled"],
  ["running is cancelled", "running", { type: "cancel" }, "canceled"],
  ["failed is not cancelled", "failed", { type: "cancel" }, "refused"],
];

for (const [title, from, event, expected] of runTable) {
  test(`data export run transition: ${title}`, (t) => {
    const result = transitionRun(run(from), event, NOW);
    if (expected === "refused") return t.is(result._tag, "Left");
    if (result._tag === "Left") return t.fail(result.left.message);
    t.is(result.right.status, expected);
  });
}

test("data export run transition: counters add up per dataset", (t) => {
  let current = run("running");
  for (const event of [
    { type: "datasetStarted", dataset: "email_events", from: "a" },
    { type: "fileWritten", file, through: "b" },
    { type: "fileWritten", file: { ...file, rows: 4, bytes: 5 }, through: "c" },
    { type: "datasetDone", dataset: "email_events", through: "d", note: null },
  ] as RunEvent[]) {
    const next = transitionRun(current, event, NOW);
    if (next._tag === "Left") return t.fail(next.left.message);
    current = next.right;
  }
  t.like(current, { rowsExported: 7, filesWritten: 2, bytesWritten: 15 });
  t.deepEqual(current.datasets.email_events, { rows: 7, files: 2, bytes: 15, from: "a", through: "d", note: null });
});
