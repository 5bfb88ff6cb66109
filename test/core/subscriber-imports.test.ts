import test from "ava";
import { chunkFailureReason } from "../../core/subscriber-imports/advance-import.js";
import { EMPTY_OUTCOME, newImport, transition, type ImportEvent, type ImportStatus, type SubscriberImport } from "../../core/subscriber-imports/model.js";
import { planChunk } from "../../core/subscriber-imports/plan-chunk.js";
import { readChunk, readRow, tallyRows } from "../../core/subscriber-imports/rows.js";
import type { Subscriber } from "../../core/subscribers/model.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const OPTIONS = { duplicateStrategy: "skip" as const, listIds: [], enrollInSequences: false, optInMode: "default" as const };

/** An import with two chunks of 10 rows, in `status`, with `processedChunks` of them done. */
function importIn(status: ImportStatus, processedChunks = 0): SubscriberImport {
  return {
    ...newImport("imp_1", "co_1", null, null, OPTIONS, NOW),
    status,
    totalRows: 20,
    chunkCount: 2,
    processedChunks,
    processedCount: processedChunks * 10,
  };
}

const ten = { ...EMPTY_OUTCOME, added: 7, skipped: 1, failed: 2, skippedReasons: { already_exists: 1 }, failedReasons: { invalid_email: 2 } };

const table: Array<[string, SubscriberImport, ImportEvent, ImportStatus | "refused"]> = [
  ["queued starts", importIn("queued"), { type: "start" }, "running"],
  ["running does not start again", importIn("running"), { type: "start" }, "refused"],
  ["a chunk is counted while queued", importIn("queued"), { type: "chunkAdded", tally: { rows: 5, emails: 5, duplicates: 0 } }, "queued"],
  ["no chunk joins a completed import", importIn("completed", 2), { type: "chunkAdded", tally: { rows: 5, emails: 5, duplicates: 0 } }, "refused"],
  ["a running import processes a chunk", importIn("running"), { type: "chunkProcessed", outcome: ten }, "running"],
  ["a queued import processes nothing", importIn("queued"), { type: "chunkProcessed", outcome: ten }, "refused"],
  ["no chunk beyond the last", importIn("running", 2), { type: "chunkProcessed", outcome: ten }, "refused"],
  ["a chunk fails", importIn("running"), { type: "chunkFailed", rows: 10, reason: "disk full" }, "running"],
  ["finish after the last chunk", importIn("running", 2), { type: "finish" }, "completed"],
  ["no finish before the last chunk", importIn("running", 1), { type: "finish" }, "refused"],
  ["a running import fails", importIn("running", 1), { type: "fail", error: "Interrupted" }, "failed"],
  ["a completed import does not fail", importIn("completed", 2), { type: "fail", error: "late" }, "refused"],
];

for (const [title, from, event, expected] of table) {
  test(`import transition: ${title}`, (t) => {
    const result = transition(from, event, NOW);
    if (expected === "refused") return t.is(result._tag, "Left");
    if (result._tag === "Left") return t.fail(result.left.message);
    t.is(result.right.status, expected);
  });
}

test("import transition: counters and reasons add up, and an import whose every chunk failed has failed", (t) => {
  let current = importIn("running");
  const apply = (event: ImportEvent) => {
    const next = transition(current, event, NOW);
    if (next._tag === "Left") throw new Error(next.left.message);
    current = next.right;
  };
  apply({ type: "chunkProcessed", outcome: ten });
  apply({ type: "chunkFailed", rows: 10, reason: "disk full" });
  apply({ type: "finish" });
  t.like(current, { status: "completed", processedCount: 20, addedCount: 7, skippedCount: 1, failedCount: 12, processedChunks: 2, completedAt: NOW });
  t.deepEqual(current.failedReasons, { invalid_email: 2, chunk_failed: 10 });
  t.deepEqual(current.failedChunkReasons, { "disk full": 1 });

  current = importIn("running");
  apply({ type: "chunkFailed", rows: 10, reason: "disk full" });
  apply({ type: "chunkFailed", rows: 10, reason: "disk full" });
  apply({ type: "finish" });
  t.like(current, { status: "failed", error: "No chunk of the import could be written", failedCount: 20 });
  t.deepEqual(current.failedChunkReasons, { "disk full": 2 });
});

test("rows: each is read on its own, with a reason when it is not a contact", (t) => {
  t.deepEqual(readRow({ phone: "+15551234567" }), { kind: "failed", reason: "missing_email" });
  t.deepEqual(readRow({ email: "  " }), { kind: "failed", reason: "missing_email" });
  t.deepEqual(readRow({ email: "ada@" }), { kind: "failed", reason: "invalid_email" });
  t.deepEqual(readRow("ada@example.com"), { kind: "failed", reason: "invalid_field" });
  t.deepEqual(readRow({ email: "ada@example.com", firstName: "x".repeat(256) }), { kind: "failed", reason: "invalid_field" });
  t.deepEqual(readRow({ email: "ada@example.com", status: "deleted" }), { kind: "failed", reason: "invalid_field" });
  t.deepEqual(readRow({ email: "ada@example.com", timezone: "Nowhere/City" }), { kind: "failed", reason: "invalid_field" });
  t.deepEqual(readRow({ email: "ada@example.com", customAttributes: { account: 1 } }), { kind: "failed", reason: "reserved_attribute" });
  t.deepEqual(readRow({ email: "ada@example.com", tags: ["***"] }), { kind: "failed", reason: "invalid_tag" });
  const ok = readRow({
    email: " Ada@Example.COM ",
    externalId: 42,
    firstName: " Ada ",
    lastName: "",
    tags: ["Pro Customer"],
    timezone: "Europe/Paris",
    unknown: true,
  });
  if (ok.kind !== "contact") return t.fail();
  t.like(ok.contact, { email: "ada@example.com", externalId: "42", firstName: "Ada", lastName: undefined, timezone: "Europe/Paris" });
  t.deepEqual(ok.contact.tags, ["pro-customer"]);
});

test("rows: a repeated email is a duplicate wherever it appears in the import", (t) => {
  const seen = new Set<string>();
  const first = tallyRows([{ email: "a@example.com" }, { email: "bad" }, { email: "A@example.com" }], seen);
  const second = tallyRows([{ email: "a@example.com" }, { email: "b@example.com" }], seen);
  t.deepEqual(first.tally, { rows: 3, emails: 2, duplicates: 1 });
  t.deepEqual(second.tally, { rows: 2, emails: 2, duplicates: 1 });
  t.deepEqual(
    [...first.rows, ...second.rows].map((row) => row.duplicate),
    [false, false, true, true, false],
  );
});

test("plan: a later row that matches an earlier row's contact by externalId builds on it", (t) => {
  const existing: Subscriber = {
    id: "sub_old",
    companyId: "co_1",
    email: "old@example.com",
    externalId: "crm-old",
    firstName: "Old",
    lastName: null,
    phone: null,
    smsStatus: "not_subscribed",
    status: "unsubscribed",
    emailProvider: null,
    timezone: null,
    customAttributes: { plan: "free" },
    unsubscribedAt: NOW,
    createdAt: NOW,
    updatedAt: NOW,
  };
  let n = 0;
  const readings = readChunk(
    [
      { email: "new@example.com", externalId: "crm-new", tags: ["a"] },
      { email: "other@example.com", externalId: "crm-new", firstName: "Merged", tags: ["b"] },
      { email: "x@example.com", externalId: "crm-old", customAttributes: { seats: 2 } },
      { email: "old@example.com", externalId: "crm-new" },
    ].map((data) => ({ data, duplicate: false })),
  );
  const plan = planChunk(readings, [existing], { companyId: "co_1", strategy: "merge", newId: () => `sub_${++n}`, now: NOW });
  t.deepEqual(plan.outcome, { added: 1, updated: 2, skipped: 0, failed: 1, skippedReasons: {}, failedReasons: { external_id_conflict: 1 } });
  t.is(plan.inserts.length, 1);
  t.like(plan.inserts[0]!.subscriber, { id: "sub_1", email: "new@example.com", externalId: "crm-new", firstName: "Merged", companyId: "co_1" });
  t.deepEqual(plan.inserts[0]!.tags, ["a", "b"]);
  t.like(plan.updates[0]!.subscriber, { id: "sub_old", status: "unsubscribed", customAttributes: { plan: "free", seats: 2 } });
});

test("chunk failure reasons drop the statement a driver puts first", (t) => {
  t.is(
    chunkFailureReason(new Error('insert into "subscribers" (...) values ($1) - value too long for type character varying(32)')),
    "value too long for type character varying(32)",
  );
  t.is(chunkFailureReason(new Error("disk I/O error\nstack")), "disk I/O error");
});
