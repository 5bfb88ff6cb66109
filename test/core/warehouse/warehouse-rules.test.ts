import test from "ava";
import { maskUrl, parseWarehouseUrl } from "../../../core/warehouse/connection-url.js";
import { CursorWindow } from "../../../core/warehouse/cursor-window.js";
import {
  FREQUENCIES,
  firstRunAt,
  MAX_RETRY_DELAY_MS,
  newRun,
  retryDelayMs,
  runTransition,
  transition,
  type RunStatus,
  type SyncEvent,
  type SyncStatus,
  type WarehouseSync,
  type WarehouseSyncRun,
} from "../../../core/warehouse/model.js";
import { isUnchanged, mapRow, type StoredContact } from "../../../core/warehouse/row-mapping.js";
import { RunTally } from "../../../core/warehouse/run-tally.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const HOUR = 3_600_000;

function syncIn(status: SyncStatus, overrides: Partial<WarehouseSync> = {}): WarehouseSync {
  return {
    id: "whs_1",
    companyId: "co_1",
    connectionId: "whc_1",
    name: "Customers",
    kind: "subscribers",
    query: "select * from customers",
    mapping: { emailColumn: "email", firstNameColumn: "first_name", attributes: [{ column: "plan", attribute: "plan" }] },
    cursorColumn: "updated_at",
    cursorValue: "2026-01-01 00:00:00+00",
    listIds: [],
    optInMode: "confirmed",
    triggerAutomations: false,
    frequency: "hourly",
    isEnabled: true,
    fullResyncRequested: false,
    maxRowsPerRun: 100,
    statementTimeoutSeconds: 60,
    status,
    nextRunAt: null,
    lastRunAt: null,
    lastSuccessAt: null,
    lastError: null,
    lastErrorAt: null,
    consecutiveFailures: 0,
    latestRunId: null,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

const run = (sync: WarehouseSync, options = { manual: true, fullResync: false }): WarehouseSyncRun => newRun("whr_1", sync, options, NOW);
const succeeded = (sync: WarehouseSync, cursorTo: string | null): WarehouseSyncRun => ({ ...run(sync), status: "succeeded", cursorTo });

const table: Array<[string, WarehouseSync, SyncEvent, SyncStatus | "refused"]> = [
  ["an idle sync queues a run", syncIn("idle"), { type: "runQueued", run: run(syncIn("idle")) }, "queued"],
  [
    "an idle sync whose last run failed queues a run",
    syncIn("idle", { lastError: "boom", consecutiveFailures: 1 }),
    { type: "runQueued", run: run(syncIn("idle")) },
    "queued",
  ],
  ["no second run while one is queued", syncIn("queued"), { type: "runQueued", run: run(syncIn("queued")) }, "refused"],
  ["no second run while one is running", syncIn("running"), { type: "runQueued", run: run(syncIn("running")) }, "refused"],
  ["a queued run starts", syncIn("queued"), { type: "runStarted" }, "running"],
  ["an idle sync has nothing to start", syncIn("idle"), { type: "runStarted" }, "refused"],
  ["a running run succeeds", syncIn("running"), { type: "runSucceeded", run: succeeded(syncIn("running"), "x") }, "idle"],
  ["a running run fails: idle again between runs", syncIn("running"), { type: "runFailed", error: "boom" }, "idle"],
  ["a queued run fails: idle again between runs", syncIn("queued"), { type: "runFailed", error: "boom" }, "idle"],
  ["an idle sync does not fail", syncIn("idle"), { type: "runFailed", error: "boom" }, "refused"],
  ["a sync is paused whatever its status", syncIn("running"), { type: "enabled", isEnabled: false }, "running"],
];

for (const [title, from, event, expected] of table) {
  test(`warehouse sync transition: ${title}`, (t) => {
    const result = transition(from, event, NOW);
    if (expected === "refused") return t.is(result._tag, "Left");
    if (result._tag === "Left") return t.fail(result.left.message);
    t.is(result.right.status, expected);
  });
}

const right = <A>(result: { _tag: "Left"; left: { message: string } } | { _tag: "Right"; right: A }): A => {
  if (result._tag === "Left") throw new Error(result.left.message);
  return result.right;
};

test("warehouse sync: a success moves the cursor, clears lastError and schedules the next run from the frequency", (t) => {
  const failing = syncIn("running", { lastError: "earlier", lastErrorAt: new Date(NOW.getTime() - HOUR), consecutiveFailures: 3 });
  const after = right(transition(failing, { type: "runSucceeded", run: succeeded(failing, "2026-02-01 00:00:00+00") }, NOW));
  t.is(after.cursorValue, "2026-02-01 00:00:00+00");
  t.is(after.lastError, null);
  t.deepEqual(after.lastErrorAt, failing.lastErrorAt, "lastErrorAt keeps the time of the last failure");
  t.is(after.consecutiveFailures, 0);
  t.deepEqual(after.lastSuccessAt, NOW);
  t.deepEqual(after.nextRunAt, new Date(NOW.getTime() + HOUR));

  const nothingRead = right(transition(syncIn("running"), { type: "runSucceeded", run: succeeded(syncIn("running"), null) }, NOW));
  t.is(nothingRead.cursorValue, "2026-01-01 00:00:00+00", "a run that synced no row keeps the cursor");
  const disabled = right(transition(syncIn("running", { isEnabled: false }), { type: "runSucceeded", run: succeeded(syncIn("running"), null) }, NOW));
  t.is(disabled.nextRunAt, null, "a paused sync is not scheduled");
});

test("warehouse sync: a failure keeps the cursor, counts failures and retries sooner, at most 6 hours later", (t) => {
  let sync = syncIn("running");
  sync = right(transition(sync, { type: "runFailed", error: "timeout" }, NOW));
  t.is(sync.status, "idle", "the failure shows in lastError, not in the status");
  t.is(sync.cursorValue, "2026-01-01 00:00:00+00");
  t.is(sync.lastError, "timeout");
  t.deepEqual(sync.lastErrorAt, NOW);
  t.is(sync.consecutiveFailures, 1);
  t.deepEqual(sync.nextRunAt, new Date(NOW.getTime() + HOUR));
  sync = right(transition({ ...sync, status: "running" }, { type: "runFailed", error: "timeout" }, NOW));
  t.is(sync.consecutiveFailures, 2);
  t.deepEqual(sync.nextRunAt, new Date(NOW.getTime() + 2 * HOUR));
  t.is(retryDelayMs("hourly", 10), MAX_RETRY_DELAY_MS);
  t.is(retryDelayMs("daily", 1), MAX_RETRY_DELAY_MS);
  t.is(retryDelayMs("every_15_minutes", 1), FREQUENCIES.every_15_minutes);
});

test("warehouse sync: a full resync is requested until a full run succeeds; a sync without cursor always reads everything", (t) => {
  const idle = syncIn("idle");
  const full = newRun("whr_2", idle, { manual: true, fullResync: true }, NOW);
  t.true(full.isFullResync);
  t.is(full.cursorFrom, null);
  const queued = right(transition(idle, { type: "runQueued", run: full }, NOW));
  t.true(queued.fullResyncRequested);
  t.is(queued.nextRunAt, null);
  t.is(queued.latestRunId, "whr_2");
  const done = right(transition({ ...queued, status: "running" }, { type: "runSucceeded", run: { ...full, status: "succeeded", cursorTo: "z" } }, NOW));
  t.false(done.fullResyncRequested);

  const incremental = newRun("whr_3", idle, { manual: false, fullResync: false }, NOW);
  t.false(incremental.isFullResync);
  t.is(incremental.cursorFrom, idle.cursorValue);
  t.true(newRun("whr_4", { ...idle, fullResyncRequested: true }, { manual: false, fullResync: false }, NOW).isFullResync);
  t.true(newRun("whr_5", { ...idle, cursorColumn: null }, { manual: false, fullResync: false }, NOW).isFullResync);
});

test("warehouse sync: a new sync's schedule first comes due one interval after creation, never while disabled", (t) => {
  t.deepEqual(firstRunAt("hourly", true, NOW), new Date(NOW.getTime() + HOUR));
  t.deepEqual(firstRunAt("daily", true, NOW), new Date(NOW.getTime() + 24 * HOUR));
  t.is(firstRunAt("hourly", false, NOW), null);
});

test("warehouse sync: pausing clears nextRunAt, resuming makes it due now", (t) => {
  const paused = right(transition(syncIn("idle", { nextRunAt: new Date(NOW.getTime() + HOUR) }), { type: "enabled", isEnabled: false }, NOW));
  t.false(paused.isEnabled);
  t.is(paused.nextRunAt, null);
  const resumed = right(transition(paused, { type: "enabled", isEnabled: true }, NOW));
  t.deepEqual(resumed.nextRunAt, NOW);
});

const runTable: Array<[string, RunStatus, Parameters<typeof runTransition>[1], RunStatus | "refused"]> = [
  ["a queued run starts", "queued", { type: "start" }, "running"],
  ["a running run starts again after a crash", "running", { type: "start" }, "running"],
  ["a finished run does not start", "succeeded", { type: "start" }, "refused"],
  ["a running run succeeds", "running", { type: "succeed", cursorTo: null, rowLimitReached: false }, "succeeded"],
  ["a queued run does not succeed", "queued", { type: "succeed", cursorTo: null, rowLimitReached: false }, "refused"],
  ["a queued run fails", "queued", { type: "fail", error: "x" }, "failed"],
  ["a failed run does not fail again", "failed", { type: "fail", error: "x" }, "refused"],
];

for (const [title, status, event, expected] of runTable) {
  test(`warehouse sync run transition: ${title}`, (t) => {
    const result = runTransition({ ...run(syncIn("queued")), status }, event, NOW);
    if (expected === "refused") return t.is(result._tag, "Left");
    if (result._tag === "Left") return t.fail(result.left.message);
    t.is(result.right.status, expected);
  });
}

test("warehouse sync run: a restart counts from zero and keeps the imports of the earlier attempt", (t) => {
  const running = {
    ...run(syncIn("queued")),
    status: "running" as const,
    rowsRead: 40,
    rowsSynced: 40,
    attempts: 1,
    subscriberImportIds: ["imp_1"],
    startedAt: NOW,
  };
  const restarted = right(runTransition(running, { type: "start" }, new Date(NOW.getTime() + 1000)));
  t.is(restarted.rowsRead, 0);
  t.is(restarted.rowsSynced, 0);
  t.is(restarted.attempts, 2);
  t.deepEqual(restarted.subscriberImportIds, ["imp_1"]);
  t.deepEqual(restarted.startedAt, NOW);
});

const MAPPING = {
  emailColumn: "email",
  firstNameColumn: "first_name",
  attributes: [
    { column: "plan", attribute: "plan" },
    { column: "seats", attribute: "seats" },
  ],
};

test("row mapping: email, first name and attributes; missing or invalid emails are skipped, bad names fail", (t) => {
  t.deepEqual(mapRow({ EMAIL: " Ada@Example.COM ", first_name: " Ada ", plan: "pro", seats: 3 }, MAPPING), {
    kind: "contact",
    email: "ada@example.com",
    firstName: "Ada",
    attributes: { plan: "pro", seats: 3 },
  });
  t.deepEqual(mapRow({ email: "bob@example.com", first_name: "", plan: null }, MAPPING), {
    kind: "contact",
    email: "bob@example.com",
    firstName: null,
    attributes: { plan: null, seats: null },
  });
  t.like(mapRow({ email: null }, MAPPING), { kind: "skipped", reason: "missing email (column email is empty)" });
  t.like(mapRow({ email: "   " }, MAPPING), { kind: "skipped" });
  t.like(mapRow({ email: "not-an-email" }, MAPPING), { kind: "skipped", reason: 'invalid email address: "not-an-email"' });
  t.like(mapRow({ email: "x@example.com", first_name: "a".repeat(256) }, MAPPING), { kind: "failed" });
  t.like(mapRow({ email: "x@example.com", first_name: { nested: true } }, MAPPING), { kind: "failed", reason: "first name (column first_name) is not text" });
});

test("row mapping: a row is unchanged only when the contact has its name, every mapped value and every list", (t) => {
  const row = mapRow({ email: "ada@example.com", first_name: "Ada", plan: "pro", seats: 3 }, MAPPING);
  if (row.kind !== "contact") return t.fail();
  const stored: StoredContact = { firstName: "Ada", customAttributes: { seats: 3, plan: "pro", other: "kept" }, listIds: new Set(["list_1"]) };
  t.true(isUnchanged(row, stored, ["list_1"]));
  t.false(isUnchanged(row, undefined, []), "a new contact is a change");
  t.false(isUnchanged(row, { ...stored, firstName: "Adaline" }, []));
  t.false(isUnchanged(row, { ...stored, customAttributes: { plan: "pro", seats: "3" } }, []), "3 and '3' differ");
  t.false(isUnchanged(row, stored, ["list_1", "list_2"]), "joining a list is a change");
  const nameless = mapRow({ email: "ada@example.com", first_name: null, plan: "pro", seats: 3 }, MAPPING);
  if (nameless.kind !== "contact") return t.fail();
  t.true(isUnchanged(nameless, { ...stored, firstName: "Someone" }, []), "a row without a name leaves the name alone");
  const nulls = mapRow({ email: "ada@example.com", plan: null, seats: null }, MAPPING);
  if (nulls.kind !== "contact") return t.fail();
  t.true(isUnchanged(nulls, { ...stored, customAttributes: { plan: null } }, []), "NULL matches an absent or null attribute");
  const objects = mapRow({ email: "ada@example.com", plan: { b: 1, a: [1, 2] } }, { ...MAPPING, attributes: [{ column: "plan", attribute: "plan" }] });
  if (objects.kind !== "contact") return t.fail();
  t.true(isUnchanged(objects, { ...stored, customAttributes: { plan: { a: [1, 2], b: 1 } } }, []), "key order does not matter");
});

const rows = (...cursors: string[]) => cursors.map((cursor, i) => ({ cursor, n: i + 1 }));

test("cursor window: under the cap every row is taken and the cursor is the last one", (t) => {
  const window = new CursorWindow<{ cursor: string | null; n: number }>(10, true);
  const ready = [...window.push(rows("1", "2", "2")), ...window.push(rows("3"))];
  const end = window.end();
  t.deepEqual(
    [...ready, ...end.rows].map((r) => r.cursor),
    ["1", "2", "2", "3"],
  );
  t.is(end.cursorTo, "3");
  t.false(end.rowLimitReached);
});

test("cursor window: at the cap, rows sharing the waiting row's cursor are left for the next run", (t) => {
  const window = new CursorWindow<{ cursor: string | null; n: number }>(3, true);
  const ready = window.push(rows("1", "2", "2", "2", "3"));
  t.true(window.full);
  const end = window.end();
  t.deepEqual(
    [...ready, ...end.rows].map((r) => r.cursor),
    ["1"],
  );
  t.is(end.cursorTo, "1");
  t.true(end.rowLimitReached);
  t.is(end.deferred, 2);

  const clean = new CursorWindow<{ cursor: string | null; n: number }>(3, true);
  const taken = [...clean.push(rows("1", "2", "3", "4"))];
  const cleanEnd = clean.end();
  t.deepEqual(
    [...taken, ...cleanEnd.rows].map((r) => r.cursor),
    ["1", "2", "3"],
  );
  t.is(cleanEnd.cursorTo, "3");
  t.true(cleanEnd.rowLimitReached);

  const stuck = new CursorWindow<{ cursor: string | null; n: number }>(2, true);
  stuck.push(rows("5", "5", "5"));
  const stuckEnd = stuck.end();
  t.is(stuckEnd.rows.length, 0);
  t.is(stuckEnd.cursorTo, null, "no progress is possible: the run says so");
});

test("cursor window: without a cursor column rows are taken in read order up to the cap", (t) => {
  const window = new CursorWindow<{ cursor: string | null; n: number }>(2, false);
  const ready = window.push([
    { cursor: null, n: 1 },
    { cursor: null, n: 2 },
    { cursor: null, n: 3 },
  ]);
  const end = window.end();
  t.deepEqual(
    [...ready, ...end.rows].map((r) => r.n),
    [1, 2],
  );
  t.true(end.rowLimitReached);
  t.is(end.cursorTo, null);
});

test("run tally: counts add up and at most 20 error samples are kept", (t) => {
  const tally = new RunTally();
  tally.read(30);
  for (let i = 1; i <= 25; i++) tally.skip(i, "invalid email address");
  tally.unchanged();
  tally.synced(3);
  tally.failedByImport(1, 30, "could not be written");
  const { counts, errorSamples } = tally.snapshot;
  t.deepEqual(counts, { rowsRead: 30, rowsUnchanged: 1, rowsSynced: 3, rowsSkipped: 25, rowsFailed: 1 });
  t.is(errorSamples.length, 20);
  t.deepEqual(errorSamples[0], { row: 1, reason: "invalid email address" });
});

test("connection URLs: postgres and sqlite are read, the password is masked, unsafe parameters are refused", (t) => {
  const parsed = parseWarehouseUrl("postgres", "postgres://reader:p%40ss@db.example.com:6543/analytics?sslmode=verify-full&options=-c%20search_path%3Dcrm");
  t.deepEqual(parsed, {
    ok: true,
    target: {
      kind: "postgres",
      host: "db.example.com",
      port: 6543,
      database: "analytics",
      user: "reader",
      password: "p@ss",
      sslMode: "verify-full",
      options: "-c search_path=crm",
      applicationName: null,
    },
  });
  t.like(parseWarehouseUrl("postgres", "postgresql://reader@[::1]/db"), { ok: true, target: { host: "::1", port: 5432, password: null } });
  t.like(parseWarehouseUrl("postgres", "postgres://reader:x@db.example.com/db?password=other"), { ok: false });
  t.like(parseWarehouseUrl("postgres", "postgres://reader:x@db.example.com/db?sslmode=maybe"), { ok: false });
  t.like(parseWarehouseUrl("postgres", "postgres://db.example.com/db"), {
    ok: false,
    reason: "The connection URL needs a user name (postgres://user:password@host/database)",
  });
  t.like(parseWarehouseUrl("postgres", "postgres://u:p@db.example.com"), { ok: false });
  t.like(parseWarehouseUrl("postgres", "mysql://u:p@db.example.com/db"), { ok: false });
  t.like(parseWarehouseUrl("postgres", "not a url"), { ok: false });
  t.deepEqual(parseWarehouseUrl("sqlite", "sqlite:/var/data/crm.sqlite"), { ok: true, target: { kind: "sqlite", path: "/var/data/crm.sqlite" } });
  t.like(parseWarehouseUrl("sqlite", "postgres://u@h/db"), { ok: false });

  const masked = maskUrl("postgres", "postgres://reader:s3cret@db.example.com:6543/analytics?sslmode=require");
  t.is(masked, "postgres://reader:****@db.example.com:6543/analytics?sslmode=require");
  t.false(masked.includes("s3cret"));
  t.is(maskUrl("postgres", "postgres://reader@db.example.com/analytics"), "postgres://reader@db.example.com/analytics");
});
