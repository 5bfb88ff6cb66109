import { gunzipSync } from "node:zlib";
import test from "ava";
import { NodeGzip } from "../../../adapters/compression/node-gzip.js";
import { AesGcmSecretBox } from "../../../adapters/crypto/aes-gcm-secret-box.js";
import { NodePrivateKeyReader } from "../../../adapters/crypto/node-private-key-reader.js";
import { ManualClock } from "../../../adapters/memory/manual-clock.js";
import { MemoryBucketWriter } from "../../../adapters/memory/memory-bucket-writer.js";
import { ALL_SCOPES } from "../../../core/access/scopes.js";
import type { HmacCreateDataExportCommand } from "../../../core/data-exports/commands.js";
import { CreateDataExport } from "../../../core/data-exports/create-data-export.js";
import { DeleteDataExport } from "../../../core/data-exports/delete-data-export.js";
import { DispatchDueExports } from "../../../core/data-exports/dispatch-due-exports.js";
import type { Dataset } from "../../../core/data-exports/model.js";
import type { CustomEventRecord, SubscriberRecord } from "../../../core/data-exports/records.js";
import { RunDataExport, SMS_NOTE, SNAPSHOT_DONE_NOTE } from "../../../core/data-exports/run-data-export.js";
import { RUN_DATA_EXPORT_JOB } from "../../../core/data-exports/run-job.js";
import { openBucketSecret } from "../../../core/data-exports/sealed-secret.js";
import { UpdateDataExport } from "../../../core/data-exports/update-data-export.js";
import type { Actor } from "../../../core/shared/actor.js";
import { emailEvent, MemoryExportStore, MemorySource, RecordingJobQueue, sequentialIds } from "./memory-store.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const BUCKET = "lake";
const CREDENTIALS = { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" };

const owner: Actor = {
  companyId: "co_1",
  memberId: "mem_1",
  userId: "usr_1",
  role: "owner",
  scopes: new Set(ALL_SCOPES),
  apiKeyId: "key_1",
  apiKeyPreset: "full_access",
};

function setup(options: { rowsPerFile?: number; pageSize?: number } = {}) {
  const clock = new ManualClock(NOW);
  const store = new MemoryExportStore();
  const source = new MemorySource();
  const buckets = new MemoryBucketWriter({ buckets: [BUCKET], credentials: CREDENTIALS });
  const box = new AesGcmSecretBox(Buffer.alloc(32, 7));
  const jobs = new RecordingJobQueue();
  const create = new CreateDataExport(store, buckets, box, jobs, sequentialIds, clock, false, new NodePrivateKeyReader());
  const runner = new RunDataExport(store, source, buckets, new NodeGzip(), box, clock, {
    rowsPerFile: options.rowsPerFile ?? 7,
    pageSize: options.pageSize ?? 5,
    settleMs: MINUTE,
  });
  const dispatch = new DispatchDueExports(store, jobs, sequentialIds, clock);

  const createExport = async (overrides: Partial<HmacCreateDataExportCommand> = {}) => {
    const created = await create.execute(owner, {
      name: "Lake",
      provider: "s3",
      bucket: BUCKET,
      region: "eu-west-3",
      pathPrefix: "/exports/prod/",
      ...CREDENTIALS,
      ...overrides,
    });
    if (created._tag === "Left") throw new Error(created.left.message);
    return created.right;
  };
  /** Runs the job enqueued last, as the worker would. */
  const runLastJob = () => {
    const job = jobs.jobs.filter((j) => j.type === RUN_DATA_EXPORT_JOB).at(-1)!;
    return runner.execute(job.companyId!, String(job.payload!.dataExportId), String(job.payload!.runId));
  };
  /** Every line of every file of `dataset` in the bucket, and the keys of those files. */
  const exported = (dataset: Dataset) => {
    const keys = buckets.keys(BUCKET, `exports/prod/${dataset}/`);
    const rows = keys.flatMap((key) =>
      gunzipSync(buckets.read(BUCKET, key)!)
        .toString("utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>),
    );
    return { keys, rows };
  };
  return { clock, store, source, buckets, box, jobs, runner, dispatch, createExport, runLastJob, exported };
}

/** `count` events from `start`, `perInstant` of them recorded at each same millisecond (ties). */
function events(start: Date, count: number, stepMs: number, perInstant: number, prefix = "eev") {
  return Array.from({ length: count }, (_, i) => {
    const at = new Date(start.getTime() + Math.floor(i / perInstant) * stepMs).toISOString();
    // IDs not in time order, so ties are broken by ID, not by insertion order.
    return emailEvent(`${prefix}_${String((i * 7919) % 100_000).padStart(6, "0")}_${i}`, at);
  });
}

test("a run killed half-way and resumed writes every event exactly once: uploads failing after 5 files, then a death between an upload and its commit", async (t) => {
  const { clock, store, source, buckets, dispatch, createExport, runLastJob, exported } = setup();
  const startFrom = new Date(NOW.getTime() - 2 * 24 * HOUR);
  // 3 days of events across midnight, 3 per millisecond; some before startFrom, some too recent.
  source.email = events(new Date(startFrom.getTime() - 10 * HOUR), 240, 17 * MINUTE, 3);
  const created = await createExport({ datasets: ["email_events"], startFrom });
  const expectedFirst = source.email.filter((e) => e.recordedAt >= startFrom.toISOString() && e.recordedAt < new Date(NOW.getTime() - MINUTE).toISOString());

  // Run 1: the bucket refuses every upload after the fifth.
  let uploads = 0;
  buckets.failWritesWhen((write) => (write.kind === "upload" && ++uploads > 5 ? "The destination is unavailable." : null));
  const first = await runLastJob();
  t.like(first, { status: "failed", filesWritten: 5, rowsExported: 35, error: `Could not write to bucket ${BUCKET}: The destination is unavailable.` });
  let current = store.exports.get(created.id)!;
  t.like(current, { status: "failed", consecutiveFailures: 1, totalRowsExported: 35, lastError: first!.error, lastErrorAt: NOW });
  t.deepEqual(current.nextRunAt, new Date(NOW.getTime() + 15 * MINUTE));
  t.is(exported("email_events").keys.length, 5);
  // The failed run's manifest says so.
  const failedManifest = JSON.parse(buckets.read(BUCKET, `exports/prod/_manifests/${first!.id}.json`)!.toString("utf8"));
  t.like(failedManifest, { status: "failed", rows: 35, runId: first!.id });
  t.is(failedManifest.files.length, 5);

  // Run 2 (the retry, once due): the process dies after uploading its 4th file, before committing it.
  buckets.failWritesWhen(null);
  clock.advance(15 * MINUTE);
  t.is(await dispatch.execute(), 1);
  store.beforeSave = (_state, save) => {
    if ((save.runs ?? []).some((run) => run.trigger === "retry" && run.filesWritten === 4)) store.crashed = true;
  };
  await t.throwsAsync(runLastJob(), { message: "the process died" });
  const uploadedBeforeDeath = exported("email_events").keys;
  t.is(uploadedBeforeDeath.length, 9);

  // Events keep arriving; the worker comes back and the job resumes the same run.
  source.email.push(...events(new Date(clock.now().getTime() - 30 * MINUTE), 12, 1000, 4, "late"));
  store.crashed = false;
  store.beforeSave = null;
  clock.advance(5 * MINUTE);
  const resumed = await runLastJob();
  t.is(resumed?.status, "succeeded");
  t.is(resumed?.trigger, "retry");

  const before = new Date(clock.now().getTime() - MINUTE).toISOString();
  const expected = source.email.filter((e) => e.recordedAt >= startFrom.toISOString() && e.recordedAt < before).map((e) => e.id);
  t.true(expected.length > expectedFirst.length);
  const { keys, rows } = exported("email_events");
  const ids = rows.map((row) => row.id as string);
  t.is(new Set(ids).size, ids.length, "no event is written twice");
  t.deepEqual([...ids].sort(), [...expected].sort(), "every event is written");
  // The file uploaded before the death was written again under the same name, not a second copy.
  t.true(uploadedBeforeDeath.every((key) => keys.includes(key)));
  current = store.exports.get(created.id)!;
  t.like(current, { status: "idle", lastError: null, consecutiveFailures: 0, totalRowsExported: expected.length });
  t.is(current.watermarks.events.email_events?.at.toISOString(), before);
  // Each file holds one day, in order, at most rowsPerFile rows.
  for (const key of keys) {
    const day = /date=(\d{4}-\d{2}-\d{2})\//.exec(key)![1]!;
    const inFile = gunzipSync(buckets.read(BUCKET, key)!)
      .toString("utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { recordedAt: string });
    t.true(inFile.length <= 7);
    t.true(inFile.every((row) => row.recordedAt.startsWith(day)));
  }
  // The successful run's manifest lists exactly what it committed.
  const manifest = JSON.parse(buckets.read(BUCKET, `exports/prod/_manifests/${resumed!.id}.json`)!.toString("utf8"));
  t.like(manifest, { status: "succeeded", runId: resumed!.id, dataExportId: created.id, rows: resumed!.rowsExported });
  t.is(manifest.files.length, resumed!.filesWritten);
  t.is(35 + resumed!.rowsExported, expected.length);
  t.is(manifest.datasets.email_events.through, before);
  // Nothing read more than a page at a time.
  t.true(source.pageSizes.every((size) => size === 5));
});

test("events recorded in the last minute wait for the next run; a run with nothing new moves the watermark only", async (t) => {
  const { clock, source, store, dispatch, createExport, runLastJob, exported } = setup();
  const startFrom = new Date(NOW.getTime() - HOUR);
  source.email = [
    emailEvent("eev_a", new Date(NOW.getTime() - 30 * MINUTE).toISOString()),
    emailEvent("eev_b", new Date(NOW.getTime() - 20_000).toISOString()),
  ];
  const created = await createExport({ datasets: ["email_events"], startFrom, frequency: "every_5_minutes" });
  t.like(await runLastJob(), { status: "succeeded", rowsExported: 1 });
  t.deepEqual(
    exported("email_events").rows.map((r) => r.id),
    ["eev_a"],
  );

  clock.advance(5 * MINUTE);
  t.is(await dispatch.execute(), 1);
  t.like(await runLastJob(), { status: "succeeded", rowsExported: 1, trigger: "scheduled" });
  t.deepEqual(
    exported("email_events")
      .rows.map((r) => r.id)
      .sort(),
    ["eev_a", "eev_b"],
  );

  clock.advance(5 * MINUTE);
  await dispatch.execute();
  const quiet = await runLastJob();
  t.like(quiet, { status: "succeeded", rowsExported: 0, filesWritten: 0 });
  t.is(store.exports.get(created.id)!.watermarks.events.email_events?.at.toISOString(), new Date(clock.now().getTime() - MINUTE).toISOString());
});

test("the subscriber snapshot is written once a day in parts, and one interrupted half-way is finished without duplicates", async (t) => {
  const { clock, store, source, buckets, dispatch, createExport, runLastJob, exported } = setup();
  const person = (i: number): SubscriberRecord => ({
    id: `sub_${String(i).padStart(4, "0")}`,
    email: `p${i}@example.com`,
    externalId: null,
    firstName: `P${i}`,
    lastName: null,
    phone: null,
    status: "active",
    smsStatus: "not_subscribed",
    emailProvider: null,
    timezone: null,
    customAttributes: { i },
    tags: [],
    listIds: [],
    unsubscribedAt: null,
    createdAt: NOW.toISOString(),
    updatedAt: NOW.toISOString(),
  });
  source.people = Array.from({ length: 30 }, (_, i) => person(i));
  const created = await createExport({ datasets: ["subscribers", "sms_events"], frequency: "hourly" });

  let uploads = 0;
  buckets.failWritesWhen((write) => (write.kind === "upload" && ++uploads > 2 ? "Slow down" : null));
  t.like(await runLastJob(), { status: "failed", rowsExported: 14 });
  t.deepEqual(store.exports.get(created.id)!.watermarks.subscribers, { completed: null, current: { date: "2026-11-22", afterId: "sub_0013", part: 2 } });

  buckets.failWritesWhen(null);
  source.people.push(person(30));
  clock.advance(HOUR);
  await dispatch.execute();
  const finished = await runLastJob();
  t.like(finished, { status: "succeeded", rowsExported: 17 });
  t.deepEqual(finished!.datasets.sms_events, { rows: 0, files: 0, bytes: 0, from: null, through: null, note: SMS_NOTE });
  const { keys, rows } = exported("subscribers");
  t.deepEqual(
    keys,
    [0, 1, 2, 3, 4].map((part) => `exports/prod/subscribers/date=2026-11-22/part-0000${part}.jsonl.gz`),
  );
  t.deepEqual(
    rows.map((row) => row.id),
    source.people.map((p) => p.id),
  );
  t.like(rows[3], { email: "p3@example.com", customAttributes: { i: 3 }, tags: [], listIds: [] });
  const current = store.exports.get(created.id)!;
  t.deepEqual(current.watermarks.subscribers, { completed: "2026-11-22", current: null });
  t.deepEqual(current.watermarks.events, {});

  // Later the same day: no second snapshot. The next day: a new one.
  clock.advance(HOUR);
  await dispatch.execute();
  t.like((await runLastJob())!.datasets.subscribers, { rows: 0, note: SNAPSHOT_DONE_NOTE });
  clock.set("2026-11-23T00:30:00.000Z");
  await dispatch.execute();
  t.like((await runLastJob())!.datasets.subscribers, { rows: 31, files: 5, from: "2026-11-23", through: "2026-11-23" });
  t.is(exported("subscribers").keys.filter((key) => key.includes("date=2026-11-23")).length, 5);
});

test("custom events export with their subscriber's email, and a deleted export stops at its next file", async (t) => {
  const { source, store, buckets, createExport, runLastJob, exported, box } = setup({ rowsPerFile: 2, pageSize: 2 });
  const at = (minutes: number) => new Date(NOW.getTime() - minutes * MINUTE).toISOString();
  const custom = (id: string, minutes: number) => {
    const record: CustomEventRecord = {
      id,
      name: "order_placed",
      subscriberId: "sub_1",
      email: "ada@example.com",
      properties: { total: 12 },
      occurredAt: at(minutes + 1),
      recordedAt: at(minutes),
      eventId: null,
      source: "api",
      historical: false,
    };
    return { recordedAt: record.recordedAt, id, record };
  };
  source.custom = [custom("evt_1", 50), custom("evt_2", 40), custom("evt_3", 30), custom("evt_4", 20), custom("evt_5", 10)];
  const created = await createExport({ datasets: ["custom_events"], startFrom: new Date(at(60)) });
  const deleter = new DeleteDataExport(store, new ManualClock(NOW));
  // The export is deleted while its run writes its second file.
  buckets.failWritesWhen((write) => {
    if (write.key.includes("custom_events/") && exported("custom_events").keys.length === 1) void deleter.execute(owner, created.id);
    return null;
  });
  const run = await runLastJob();
  t.is(run?.status, "canceled");
  t.like(store.exports.get(created.id), { status: "idle", nextRunAt: null });
  t.truthy(store.exports.get(created.id)!.deletedAt);
  const { rows } = exported("custom_events");
  t.deepEqual(rows[0], custom("evt_1", 50).record as unknown as Record<string, unknown>);
  // Files already written stay.
  t.true(rows.length >= 2);
  // The sealed secret opens only for its own export.
  const sealed = store.exports.get(created.id)!.destination.secretSealed;
  t.false(sealed.includes(CREDENTIALS.secretAccessKey));
  t.is(openBucketSecret(box, created.id, sealed), CREDENTIALS.secretAccessKey);
  t.throws(() => openBucketSecret(box, "dex_other", sealed));
});

test("create: the connection test is written before anything is saved; a refusal saves nothing (connection_failed)", async (t) => {
  const { store, buckets, jobs, box } = setup();
  const clock = new ManualClock(NOW);
  const create = new CreateDataExport(store, buckets, box, jobs, sequentialIds, clock, false, new NodePrivateKeyReader());
  const refused = await create.execute(owner, {
    name: "Lake",
    provider: "s3",
    bucket: BUCKET,
    region: "eu-west-3",
    accessKeyId: CREDENTIALS.accessKeyId,
    secretAccessKey: "wrong",
  });
  t.like(refused, { _tag: "Left", left: { _tag: "BadRequest", code: "connection_failed" } });
  t.regex(
    refused._tag === "Left" ? refused.left.message : "",
    /Could not write the test file _service\/connection-test\.json to bucket lake: The secret access key does not match/,
  );
  t.is(store.exports.size, 0);
  t.is(store.runs.size, 0);
  t.is(jobs.jobs.length, 0);
  t.deepEqual(buckets.keys(BUCKET), []);

  const created = await create.execute(owner, { name: "Lake", provider: "s3", bucket: BUCKET, region: "eu-west-3", pathPrefix: "a/b", ...CREDENTIALS });
  if (created._tag === "Left") return t.fail(created.left.message);
  t.deepEqual(buckets.keys(BUCKET), ["a/b/_service/connection-test.json"]);
  t.like(JSON.parse(buckets.read(BUCKET, "a/b/_service/connection-test.json")!.toString("utf8")), { testedAt: NOW.toISOString() });
  t.like(created.right, {
    status: "queued",
    isEnabled: true,
    consecutiveFailures: 0,
    accessKeyId: "AKIA****MPLE",
    datasets: ["email_events", "sms_events", "custom_events", "subscribers"],
  });
  t.is(jobs.jobs.length, 1);

  const marketer = await create.execute({ ...owner, role: "marketer" }, { name: "Lake", provider: "s3", bucket: BUCKET, region: "eu-west-3", ...CREDENTIALS });
  t.like(marketer, { _tag: "Left", left: { _tag: "Forbidden" } });
});

test("pause cancels a queued run; resume starts one at once; rotating credentials tests the new ones first", async (t) => {
  const { store, buckets, jobs, box, createExport, runLastJob } = setup();
  const clock = new ManualClock(NOW);
  const update = new UpdateDataExport(store, buckets, box, jobs, sequentialIds, clock, new NodePrivateKeyReader());
  const created = await createExport();
  const paused = await update.execute(owner, created.id, { isEnabled: false });
  t.like(paused, { _tag: "Right", right: { isEnabled: false, status: "idle", nextRunAt: null } });
  // The cancelled run's job finds nothing to do.
  t.is(await runLastJob(), null);
  t.deepEqual(
    [...store.runs.values()].map((run) => run.status),
    ["canceled"],
  );

  const resumed = await update.execute(owner, created.id, { isEnabled: true });
  t.like(resumed, { _tag: "Right", right: { isEnabled: true, status: "queued" } });
  t.like(await runLastJob(), { status: "succeeded", trigger: "resumed" });

  const badRotation = await update.execute(owner, created.id, { accessKeyId: "AKIANEWKEY000000", secretAccessKey: "nope" });
  t.like(badRotation, { _tag: "Left", left: { code: "connection_failed" } });
  t.is(store.exports.get(created.id)!.destination.accessKeyId, CREDENTIALS.accessKeyId);

  const fixed = await update.execute(owner, created.id, { bucket: "other", pathPrefix: "x" });
  t.like(fixed, {
    _tag: "Left",
    left: { code: "invalid_input", message: "bucket, pathPrefix cannot be changed after creation: create a new data export instead" },
  });
  const half = await update.execute(owner, created.id, { accessKeyId: "AKIANEWKEY000000" });
  t.like(half, { _tag: "Left", left: { code: "invalid_input" } });
  const renamed = await update.execute(owner, created.id, { name: "Warehouse", frequency: "daily" });
  t.like(renamed, { _tag: "Right", right: { name: "Warehouse", frequency: "daily", nextRunAt: new Date(NOW.getTime() + 24 * HOUR).toISOString() } });
});
