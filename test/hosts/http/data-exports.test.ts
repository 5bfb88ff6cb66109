import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";
import test, { type ExecutionContext } from "ava";
import type { Knex } from "knex";
import { isPostgres } from "../../../adapters/knex/connection.js";
import { toDbDate } from "../../../adapters/knex/row-codecs.js";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { pacedCaller } from "../../helpers/paced-caller.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { startS3Server } from "../../helpers/s3-server.js";

const NOW = Date.parse("2026-11-22T10:00:00.000Z");
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();
const BUCKET = "lake";
/** s3rver keeps its key pairs in a process-wide registry: the tests add their own. */
const s3rverAccounts = createRequire(import.meta.url)("s3rver/lib/models/account.js") as {
  DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void; revokeAccessKey(id: string): void };
};
/** The credentials the tests give: the secret must never be seen again. */
const KEY_ID = "AKIAEXPORTTESTKEY001";
const SECRET = "exp0rtS3cret/Never+Returned-8c1f27d9e04b";
const ROTATED_KEY_ID = "AKIAEXPORTTESTKEY002";
const ROTATED_SECRET = "second-secret/value+9f0e";
s3rverAccounts.DUMMY_ACCOUNT.createKeyPair(KEY_ID, SECRET);
s3rverAccounts.DUMMY_ACCOUNT.createKeyPair(ROTATED_KEY_ID, ROTATED_SECRET);

const gunzipLines = (body: Buffer) =>
  gunzipSync(body)
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, any>);

/** An email send and its events, as the email pipeline leaves them. */
async function seedEmailEvents(knex: Knex, companyId: string, sendId: string, times: readonly number[], recipient = "ada@example.com") {
  await knex("email_sends").insert({
    id: sendId,
    company_id: companyId,
    subscriber_id: null,
    recipient_email: recipient,
    email_type: "campaign",
    campaign_id: "cmp_weekly",
    subject: "Weekly news",
    sender_email: "news@brand.example",
    status: "delivered",
    mailbox_provider: "gmail",
    created_at: toDbDate(new Date(times[0]! - MINUTE)),
    updated_at: toDbDate(new Date(times[0]! - MINUTE)),
  });
  await knex("email_events").insert(
    times.map((at, i) => ({
      id: `eev_${sendId}_${String(i).padStart(3, "0")}`,
      company_id: companyId,
      email_send_id: sendId,
      event_type: i === 0 ? "delivery" : i % 3 === 0 ? "click" : "open",
      event_time: toDbDate(new Date(at - 1000)),
      url: i % 3 === 0 && i > 0 ? "https://brand.example/sale" : null,
      machine: i === 1,
      created_at: toDbDate(new Date(at)),
    })),
  );
}

/** Every row of every table, as text: what a database reader would see. */
async function everyRow(knex: Knex): Promise<string> {
  const tables: string[] = isPostgres(knex)
    ? (await knex.raw("select table_name from information_schema.tables where table_schema = current_schema()")).rows.map(
        (r: { table_name: string }) => r.table_name,
      )
    : (await knex.raw("select name from sqlite_master where type = 'table'")).map((r: { name: string }) => r.name);
  const dumps: string[] = [];
  for (const table of tables) dumps.push(JSON.stringify(await knex(table).select()));
  return dumps.join("\n");
}

async function setup(t: ExecutionContext, dialect: Dialect) {
  const api = await apiFixture(t, dialect, { allowPrivateDestinations: true });
  const s3 = await startS3Server(t, [BUCKET, "other"]);
  const { container, knex } = api.runtime;
  const a = await createCompanyFixture(container, { name: "Acme" });
  const b = await createCompanyFixture(container, { name: "Beta" });
  const worker = createWorker(container, { concurrency: 1 }, { push: false });
  const destination = (overrides: Record<string, unknown> = {}) => ({
    name: "Lake",
    provider: "s3",
    bucket: BUCKET,
    endpoint: s3.endpoint,
    region: s3.region,
    pathPrefix: "/exports/prod/",
    accessKeyId: KEY_ID,
    secretAccessKey: SECRET,
    ...overrides,
  });
  // Company A's calls go through several of its owner's keys, each kept under the per-key limit
  // of 20 a second (a fast machine runs a whole test inside one second); other keys are named.
  const paced = await pacedCaller(api, a);
  const call = (method: string, path: string, key: string | undefined, body?: unknown) =>
    key === undefined ? paced(method, `/api/v1${path}`, { body }) : api.call(method, `/api/v1${path}`, { key, body });
  const post = (path: string, body: unknown, key?: string) => call("POST", path, key, body);
  const get = (path: string, key?: string) => call("GET", path, key);
  const patch = (path: string, body: unknown, key?: string) => call("PATCH", path, key, body);
  const del = (path: string, key?: string) => call("DELETE", path, key);
  const read = async (key: string) => s3.getObject(BUCKET, key);
  return { api, s3, a, b, knex, container, worker, destination, post, get, patch, del, read, runJobs: () => worker.runDue() };
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: data exports: ${title}`;

  test(name("create writes the connection test, runs at once, and its files and manifest hold every row exactly once"), async (t) => {
    const { api, s3, a, b, knex, destination, post, get, read, runJobs } = await setup(t, dialect);
    // Email events over two days for Acme (ties included), and some of Beta's that must not leak.
    const acmeTimes = [...Array.from({ length: 12 }, (_, i) => NOW - 20 * HOUR + i * HOUR), NOW - 5 * MINUTE, NOW - 5 * MINUTE, NOW - 5 * MINUTE];
    await seedEmailEvents(knex, a.companyId, "send_a1", acmeTimes);
    await seedEmailEvents(knex, a.companyId, "send_a2", [NOW - 3 * DAY, NOW - 30 * MINUTE], "bob@example.com"); // the first is before startFrom
    await seedEmailEvents(knex, b.companyId, "send_b1", [NOW - HOUR, NOW - 2 * HOUR], "beta@example.com");
    // Custom events and contacts through the API.
    for (const [email, event] of [
      ["ada@example.com", "order.placed"],
      ["cy@example.com", "trial.started"],
    ] as const) {
      const tracked = await post("/subscribers/events", { email, event, properties: { total: 12 } });
      t.is(tracked.status, 200);
    }
    await post("/subscribers", { email: "dee@example.com", firstName: "Dee", tags: ["vip"] });
    // The custom events were recorded just now: past the settling minute they are exported.
    api.clock.advance(2 * MINUTE);

    const created = await post("/data-exports", destination({ startFrom: iso(NOW - 21 * HOUR), frequency: "hourly" }));
    t.is(created.status, 200, JSON.stringify(created.body));
    t.true(created.body.success);
    const exportView = created.body.dataExport;
    t.regex(exportView.id, /^dex_/);
    t.deepEqual(Object.keys(exportView).sort(), [
      "accessKeyId",
      "bucket",
      "consecutiveFailures",
      "createdAt",
      "datasets",
      "endpoint",
      "exportedThrough",
      "frequency",
      "id",
      "isEnabled",
      "lastError",
      "lastErrorAt",
      "lastRunAt",
      "lastSuccessAt",
      "name",
      "nextRunAt",
      "pathPrefix",
      "provider",
      "region",
      "serviceAccount",
      "startFrom",
      "status",
      "totalRowsExported",
      "updatedAt",
    ]);
    t.like(exportView, {
      name: "Lake",
      provider: "s3",
      bucket: BUCKET,
      region: "us-east-1",
      endpoint: s3.endpoint,
      pathPrefix: "exports/prod",
      accessKeyId: "AKIA****Y001",
      serviceAccount: null,
      datasets: ["email_events", "sms_events", "custom_events", "subscribers"],
      frequency: "hourly",
      isEnabled: true,
      status: "queued",
      startFrom: iso(NOW - 21 * HOUR),
      exportedThrough: { email_events: null, sms_events: null, custom_events: null, subscribers: null },
      lastError: null,
      consecutiveFailures: 0,
      totalRowsExported: 0,
    });
    const test = JSON.parse((await read("exports/prod/_service/connection-test.json")).toString("utf8"));
    t.like(test, { service: "lifecycle-email", testedAt: iso(NOW + 2 * MINUTE) });

    await runJobs();
    const after = (await get(`/data-exports/${exportView.id}`)).body.dataExport;
    const through = iso(NOW + MINUTE);
    t.like(after, {
      status: "idle",
      lastRunAt: iso(NOW + 2 * MINUTE),
      lastSuccessAt: iso(NOW + 2 * MINUTE),
      nextRunAt: iso(NOW + 2 * MINUTE + HOUR),
      lastError: null,
    });
    t.deepEqual(after.exportedThrough, { email_events: through, sms_events: null, custom_events: through, subscribers: "2026-11-22" });

    const keys = await s3.listKeys(BUCKET, "exports/prod/");
    const emailKeys = keys.filter((key) => key.startsWith("exports/prod/email_events/"));
    t.deepEqual(
      emailKeys.map((key) => key.split("/")[3]),
      ["date=2026-11-21", "date=2026-11-22"],
    );
    const emailRows = (await Promise.all(emailKeys.map(read))).flatMap(gunzipLines);
    // Every Acme event recorded since startFrom, once, in recorded order; none of Beta's.
    const source = await knex("email_events")
      .where({ company_id: a.companyId })
      .where("created_at", ">=", toDbDate(new Date(NOW - 21 * HOUR)))
      .orderBy(["created_at", "id"])
      .pluck("id");
    t.is(source.length, 16);
    t.deepEqual(
      emailRows.map((row) => row.id),
      source,
    );
    t.deepEqual(emailRows[1], {
      id: "eev_send_a1_001",
      type: "open",
      occurredAt: iso(NOW - 19 * HOUR - 1000),
      recordedAt: iso(NOW - 19 * HOUR),
      emailSendId: "send_a1",
      subscriberId: null,
      recipientEmail: "ada@example.com",
      emailType: "campaign",
      subject: "Weekly news",
      campaignId: "cmp_weekly",
      transactionalEmailId: null,
      automationId: null,
      templateId: null,
      isTest: false,
      bounceType: null,
      bounceSubType: null,
      url: null,
      machine: true,
      machineReason: null,
      userAgent: null,
      ip: null,
    });
    const customKeys = keys.filter((key) => key.startsWith("exports/prod/custom_events/date=2026-11-22/"));
    const customRows = (await Promise.all(customKeys.map(read))).flatMap(gunzipLines);
    t.deepEqual(customRows.map((row) => [row.email, row.name, row.properties]).sort(), [
      ["ada@example.com", "order.placed", { total: 12 }],
      ["cy@example.com", "trial.started", { total: 12 }],
    ]);
    const snapshotKeys = keys.filter((key) => key.startsWith("exports/prod/subscribers/"));
    t.deepEqual(snapshotKeys, ["exports/prod/subscribers/date=2026-11-22/part-00000.jsonl.gz"]);
    const people = gunzipLines(await read(snapshotKeys[0]!));
    t.deepEqual(people.map((p) => p.email).sort(), ["ada@example.com", "cy@example.com", "dee@example.com"]);
    t.like(
      people.find((p) => p.email === "dee@example.com"),
      { firstName: "Dee", tags: ["vip"], status: "active" },
    );
    t.false(keys.some((key) => key.includes("sms_events")));

    const runs = (await get(`/data-exports/${exportView.id}/runs`)).body;
    t.is(runs.runs.length, 1);
    const run = runs.runs[0];
    t.like(run, {
      status: "succeeded",
      trigger: "created",
      rowsExported: 21,
      filesWritten: 4,
      error: null,
      manifestKey: `exports/prod/_manifests/${run.id}.json`,
    });
    t.like(run.datasets.email_events, { rows: 16, files: 2, from: iso(NOW - 21 * HOUR), through });
    t.like(run.datasets.sms_events, { rows: 0, files: 0, through: null });
    t.deepEqual(runs.pagination, { limit: 50, nextCursor: null, hasMore: false });
    t.is(after.totalRowsExported, 21);
    const manifest = JSON.parse((await read(run.manifestKey)).toString("utf8"));
    t.like(manifest, { version: 1, runId: run.id, dataExportId: exportView.id, status: "succeeded", rows: 21 });
    t.deepEqual(manifest.files.map((f: { key: string }) => f.key).sort(), keys.filter((key) => key.endsWith(".jsonl.gz")).sort());
    for (const file of manifest.files as Array<{ key: string; rows: number }>) t.is(gunzipLines(await read(file.key)).length, file.rows);

    // The next hourly run writes only what is new: the three events of the last minutes are not written twice.
    await seedEmailEvents(knex, a.companyId, "send_a3", [NOW + 10 * MINUTE]);
    api.clock.advance(HOUR + MINUTE);
    await runJobs(); // the minute tick queues the due run, then runs it
    const second = (await get(`/data-exports/${exportView.id}/runs`)).body.runs[0];
    t.like(second, { status: "succeeded", trigger: "scheduled", rowsExported: 1 });
    t.like(second.datasets.subscribers, { rows: 0, note: "Today's subscriber snapshot is already written (one a day)" });
    const allEmailRows = (await Promise.all((await s3.listKeys(BUCKET, "exports/prod/email_events/")).map(read))).flatMap(gunzipLines);
    t.is(allEmailRows.length, 17);
    t.is(new Set(allEmailRows.map((row) => row.id)).size, 17);
  });

  test(name("every rule: 422 for types and unknown datasets, 400 invalid_input for rules, and nothing is saved"), async (t) => {
    const { s3, knex, destination, post, get } = await setup(t, dialect);
    const cases: Array<[string, Record<string, unknown>, number, RegExp]> = [
      ["unknown dataset", { datasets: ["email_events", "page_views"] }, 422, /datasets\.1 must be one of/],
      ["name of the wrong type", { name: 42 }, 422, /name must be a string/],
      ["missing secret", { secretAccessKey: undefined }, 422, /secretAccessKey is required/],
      ["unknown provider", { provider: "azure" }, 422, /provider must be one of: s3, gcs/],
      ["unknown frequency", { frequency: "weekly" }, 422, /frequency must be one of/],
      ["startFrom not a timestamp", { startFrom: "yesterday" }, 422, /startFrom must be an ISO 8601 timestamp/],
      ["name too long", { name: "x".repeat(256) }, 400, /name must be at most 255 characters/],
      ["blank name", { name: "  " }, 400, /name is required/],
      ["bucket given as a URL", { bucket: "https://s3.amazonaws.com/lake" }, 400, /bucket must be a bucket name, not a URL/],
      ["pathPrefix with other characters", { pathPrefix: "exports/prod data" }, 400, /pathPrefix may only contain/],
      ["pathPrefix climbing out", { pathPrefix: "exports/../secrets" }, 400, /pathPrefix must not contain '\.\.' segments/],
      ["region missing for Amazon S3", { endpoint: null, region: null }, 400, /region is required for provider s3 without a custom endpoint/],
      ["endpoint with gcs", { provider: "gcs", region: null }, 400, /endpoint is not allowed with provider gcs/],
      ["endpoint with a path", { endpoint: `${s3.endpoint}/lake` }, 400, /endpoint must be an origin/],
      ["endpoint not a URL", { endpoint: "s3 dot example" }, 400, /endpoint must be a URL/],
      ["startFrom over 30 days ago", { startFrom: iso(NOW - 30 * DAY - 1000) }, 400, /startFrom must be at most 30 days ago/],
      ["no dataset", { datasets: [] }, 400, /datasets must name at least one/],
    ];
    for (const [title, overrides, status, message] of cases) {
      const response = await post("/data-exports", destination(overrides));
      t.is(response.status, status, title);
      t.like(response.body, { success: false, code: "invalid_input" }, title);
      t.regex(response.body.error, message, title);
    }
    t.deepEqual((await get("/data-exports")).body, { success: true, dataExports: [] });
    t.is(Number((await knex("data_exports").count({ n: "*" }).first())!.n), 0);
    t.deepEqual(await s3.listKeys(BUCKET), []);

    // Accepted edge values: exactly 30 days back, 255 characters, every allowed character, region defaulted.
    const ok = await post(
      "/data-exports",
      destination({
        name: "x".repeat(255),
        startFrom: iso(NOW - 30 * DAY),
        region: null,
        pathPrefix: "//a/B_1/!.*'()=-//",
        datasets: ["subscribers", "email_events", "subscribers"],
      }),
    );
    t.is(ok.status, 200, JSON.stringify(ok.body));
    t.like(ok.body.dataExport, { region: "auto", pathPrefix: "a/B_1/!.*'()=-", datasets: ["email_events", "subscribers"], frequency: "every_15_minutes" });
    t.deepEqual(await s3.listKeys(BUCKET), ["a/B_1/!.*'()=-/_service/connection-test.json"]);
  });

  test(name("a refused connection test saves nothing: connection_failed"), async (t) => {
    const { knex, destination, post, s3 } = await setup(t, dialect);
    const unknownKey = await post("/data-exports", destination({ accessKeyId: "AKIAUNKNOWN000000000" }));
    t.is(unknownKey.status, 400);
    t.like(unknownKey.body, { success: false, code: "connection_failed" });
    t.regex(unknownKey.body.error, /^Could not write the test file exports\/prod\/_service\/connection-test\.json to bucket lake: /);
    const wrongSecret = await post("/data-exports", destination({ accessKeyId: s3.accessKeyId, secretAccessKey: SECRET }));
    t.is(wrongSecret.status, 400);
    t.deepEqual(wrongSecret.body, {
      success: false,
      code: "connection_failed",
      error: "Could not write the test file exports/prod/_service/connection-test.json to bucket lake: The secret access key does not match the access key ID.",
    });
    const noBucket = await post("/data-exports", destination({ bucket: "missing-bucket" }));
    t.like(noBucket.body, { success: false, code: "connection_failed" });
    t.is(noBucket.status, 400);
    for (const table of ["data_exports", "data_export_runs"]) t.is(Number((await knex(table).count({ n: "*" }).first())!.n), 0, table);
    t.is(Number((await knex("jobs").where({ type: "data_exports.run" }).count({ n: "*" }).first())!.n), 0);
    t.deepEqual(await s3.listKeys(BUCKET), []);
    t.false(JSON.stringify([unknownKey.body, noBucket.body]).includes(SECRET));
  });

  test(name("a failing destination: failed with lastError and back-off; rotated credentials are tested, and a success clears lastError"), async (t) => {
    const { api, s3, knex, destination, post, get, patch, runJobs } = await setup(t, dialect);
    const keyId = `AKIAREVOKED${dialect.name.toUpperCase()}${Date.now()}`;
    s3rverAccounts.DUMMY_ACCOUNT.createKeyPair(keyId, SECRET);
    t.teardown(() => s3rverAccounts.DUMMY_ACCOUNT.revokeAccessKey(keyId));
    const created = (await post("/data-exports", destination({ accessKeyId: keyId, frequency: "every_5_minutes", datasets: ["email_events"] }))).body
      .dataExport;
    t.is(created.accessKeyId, `${keyId.slice(0, 4)}****${keyId.slice(-4)}`);
    // The key is revoked after the export was created: its runs fail.
    s3rverAccounts.DUMMY_ACCOUNT.revokeAccessKey(keyId);
    await runJobs();
    let current = (await get(`/data-exports/${created.id}`)).body.dataExport;
    t.like(current, { status: "failed", consecutiveFailures: 1, lastErrorAt: iso(NOW), nextRunAt: iso(NOW + 5 * MINUTE) });
    t.regex(current.lastError, /^Could not write to bucket lake: /);
    const failedRun = (await get(`/data-exports/${created.id}/runs`)).body.runs[0];
    t.like(failedRun, { status: "failed", error: current.lastError });

    api.clock.advance(5 * MINUTE);
    await runJobs();
    current = (await get(`/data-exports/${created.id}`)).body.dataExport;
    t.like(current, { status: "failed", consecutiveFailures: 2, nextRunAt: iso(NOW + 5 * MINUTE + 10 * MINUTE) });
    t.is((await get(`/data-exports/${created.id}/runs`)).body.runs[0].trigger, "retry");

    // Rotating to credentials the destination refuses changes nothing.
    const refused = await patch(`/data-exports/${created.id}`, { accessKeyId: "AKIAUNKNOWN000000000", secretAccessKey: "another-secret-value-1234" });
    t.is(refused.status, 400);
    t.like(refused.body, { success: false, code: "connection_failed" });
    t.is((await knex("data_exports").where({ id: created.id }).first()).access_key_id, keyId);

    const wrongSecret = await patch(`/data-exports/${created.id}`, { accessKeyId: s3.accessKeyId, secretAccessKey: SECRET });
    t.like(wrongSecret.body, {
      success: false,
      code: "connection_failed",
      error: "Could not write the test file exports/prod/_service/connection-test.json to bucket lake: The secret access key does not match the access key ID.",
    });
    const rotated = await patch(`/data-exports/${created.id}`, { accessKeyId: ROTATED_KEY_ID, secretAccessKey: ROTATED_SECRET });
    t.is(rotated.status, 200);
    t.like(rotated.body.dataExport, { accessKeyId: "AKIA****Y002", status: "failed" });
    const run = await post(`/data-exports/${created.id}/run`, {});
    t.is(run.status, 202);
    t.like(run.body, { success: true, queued: true, run: { status: "queued", trigger: "manual" }, dataExport: { status: "queued" } });
    // Asking again while it is queued returns the same run.
    const again = await post(`/data-exports/${created.id}/run`, {});
    t.like(again.body, { queued: false, run: { id: run.body.run.id } });
    await runJobs();
    current = (await get(`/data-exports/${created.id}`)).body.dataExport;
    t.like(current, { status: "idle", lastError: null, consecutiveFailures: 0, lastSuccessAt: iso(NOW + 5 * MINUTE) });
    t.is(current.lastErrorAt, iso(NOW + 5 * MINUTE));
  });

  test(name("secrets appear in no response and in no database column in plain text"), async (t) => {
    const { knex, destination, post, get, patch, runJobs } = await setup(t, dialect);
    const responses: unknown[] = [];
    const created = await post("/data-exports", destination());
    responses.push(created.body);
    const id = created.body.dataExport.id;
    await runJobs();
    responses.push((await patch(`/data-exports/${id}`, { accessKeyId: ROTATED_KEY_ID, secretAccessKey: ROTATED_SECRET, name: "Renamed" })).body);
    responses.push((await get("/data-exports")).body, (await get(`/data-exports/${id}`)).body, (await get(`/data-exports/${id}/runs`)).body);
    responses.push((await post(`/data-exports/${id}/test`, {})).body, (await post(`/data-exports/${id}/run`, {})).body);
    const text = JSON.stringify(responses);
    t.false(text.includes(SECRET));
    t.false(text.includes(ROTATED_SECRET));
    t.false(text.includes(KEY_ID) || text.includes(ROTATED_KEY_ID), "the access key ID is masked");
    t.false(text.includes("secret"));
    const rows = await everyRow(knex);
    t.true(rows.includes(id));
    t.false(rows.includes(SECRET));
    t.false(rows.includes(ROTATED_SECRET));
    const stored = await knex("data_exports").where({ id }).first();
    t.regex(stored.secret_sealed, /^v1\./);
  });

  test(name("another company's export is not found; marketers are barred; missing scopes are listed together"), async (t) => {
    const { a, b, container, destination, post, get, patch, del, api } = await setup(t, dialect);
    const id = (await post("/data-exports", destination())).body.dataExport.id;
    const notFound = { success: false, code: "not_found", error: "Data export not found" };
    t.deepEqual((await get(`/data-exports/${id}`, b.ownerKey)).body, notFound);
    t.is((await get(`/data-exports/${id}`, b.ownerKey)).status, 404);
    t.deepEqual((await get(`/data-exports/${id}/runs`, b.ownerKey)).body, notFound);
    t.deepEqual((await patch(`/data-exports/${id}`, { name: "Mine" }, b.ownerKey)).body, notFound);
    t.deepEqual((await post(`/data-exports/${id}/run`, {}, b.ownerKey)).body, notFound);
    t.deepEqual((await post(`/data-exports/${id}/test`, {}, b.ownerKey)).body, notFound);
    t.deepEqual((await del(`/data-exports/${id}`, b.ownerKey)).body, notFound);
    t.deepEqual((await get("/data-exports", b.ownerKey)).body, { success: true, dataExports: [] });
    t.deepEqual((await get("/data-exports/dex_unknown")).body, notFound);
    t.is((await get(`/data-exports/${id}`)).status, 200);

    const marketer = await createMemberKeyFixture(container, a.companyId, { role: "marketer" });
    for (const [method, path] of [
      ["POST", "/data-exports"],
      ["GET", "/data-exports"],
      ["GET", `/data-exports/${id}`],
      ["PATCH", `/data-exports/${id}`],
      ["DELETE", `/data-exports/${id}`],
      ["GET", `/data-exports/${id}/runs`],
      ["POST", `/data-exports/${id}/run`],
      ["POST", `/data-exports/${id}/test`],
    ] as const) {
      const response = await api.call(method, `/api/v1${path}`, {
        key: marketer.key,
        body: method === "GET" || method === "DELETE" ? undefined : destination(),
      });
      t.is(response.status, 403, `${method} ${path}`);
      t.false(response.body.success);
      t.regex(response.body.error, /data_exports:(read|write)/);
    }

    const writer = await createMemberKeyFixture(container, a.companyId, { role: "admin", scopes: ["data_exports:write"] });
    const missing = await post("/data-exports", destination(), writer.key);
    t.is(missing.status, 403);
    t.deepEqual(missing.body, { success: false, error: "API key is missing required scope: subscribers:read, analytics:read" });
    const none = await post("/data-exports", destination(), (await createMemberKeyFixture(container, a.companyId, { scopes: ["account:read"] })).key);
    t.deepEqual(none.body, { success: false, error: "API key is missing required scope: data_exports:write, subscribers:read, analytics:read" });
    t.deepEqual((await get("/data-exports", writer.key)).body, { success: false, error: "API key is missing required scope: data_exports:read" });
    t.is((await get("/data-exports", writer.key)).status, 403);
  });

  test(
    name("PATCH pauses, resumes, renames and changes the frequency; POST test rewrites the test file; DELETE keeps the files; runs page by cursor"),
    async (t) => {
      const { api, s3, destination, post, get, patch, del, runJobs, read } = await setup(t, dialect);
      const id = (await post("/data-exports", destination({ datasets: ["subscribers"] }))).body.dataExport.id;
      const paused = await patch(`/data-exports/${id}`, { isEnabled: false });
      t.is(paused.status, 200);
      t.like(paused.body.dataExport, { isEnabled: false, status: "idle", nextRunAt: null });
      t.like((await get(`/data-exports/${id}/runs`)).body.runs[0], { status: "canceled" });
      const refused = await post(`/data-exports/${id}/run`, {});
      t.is(refused.status, 400);
      t.regex(refused.body.error, /paused/);
      await runJobs();
      t.deepEqual(
        (await s3.listKeys(BUCKET)).filter((key) => !key.includes("_service")),
        [],
      );

      const resumed = await patch(`/data-exports/${id}`, { isEnabled: true, name: "Renamed", frequency: "daily" });
      t.like(resumed.body.dataExport, { isEnabled: true, status: "queued", name: "Renamed", frequency: "daily" });
      await runJobs();
      t.like((await get(`/data-exports/${id}`)).body.dataExport, { status: "idle", nextRunAt: iso(NOW + DAY) });

      for (const [body, message] of [
        [{ bucket: "other" }, /bucket cannot be changed after creation/],
        [{ datasets: ["email_events"] }, /datasets cannot be changed/],
        [{ secretAccessKey: "alone" }, /must be given together/],
        [{}, /Nothing to change/],
        [{ name: "y".repeat(256) }, /at most 255/],
      ] as const) {
        const response = await patch(`/data-exports/${id}`, body);
        t.is(response.status, 400);
        t.like(response.body, { success: false, code: "invalid_input" });
        t.regex(response.body.error, message);
      }
      t.like((await patch(`/data-exports/${id}`, { isEnabled: "no" })).body, { success: false, code: "invalid_input" });
      t.is((await patch(`/data-exports/${id}`, { frequency: "weekly" })).status, 422);

      api.clock.advance(MINUTE);
      const tested = await post(`/data-exports/${id}/test`, {});
      t.is(tested.status, 200);
      t.deepEqual(tested.body, { success: true, connectionTest: { ok: true, key: "exports/prod/_service/connection-test.json", testedAt: iso(NOW + MINUTE) } });
      t.like(JSON.parse((await read("exports/prod/_service/connection-test.json")).toString("utf8")), { testedAt: iso(NOW + MINUTE) });

      // More runs, then page through them newest first.
      for (let i = 0; i < 3; i += 1) {
        await post(`/data-exports/${id}/run`, {});
        await runJobs();
      }
      const firstPage = (await get(`/data-exports/${id}/runs?limit=2`)).body;
      t.is(firstPage.runs.length, 2);
      t.true(firstPage.pagination.hasMore);
      const secondPage = (await get(`/data-exports/${id}/runs?limit=2&cursor=${firstPage.pagination.nextCursor}`)).body;
      const thirdPage = (await get(`/data-exports/${id}/runs?limit=2&cursor=${secondPage.pagination.nextCursor}`)).body;
      const all = [...firstPage.runs, ...secondPage.runs, ...thirdPage.runs].map((run: { id: string }) => run.id);
      t.is(new Set(all).size, 5);
      t.false(thirdPage.pagination.hasMore);
      t.is((await get(`/data-exports/${id}/runs?cursor=nonsense`)).status, 400);

      const files = await s3.listKeys(BUCKET);
      const deleted = await del(`/data-exports/${id}`);
      t.is(deleted.status, 200);
      t.like(deleted.body, { success: true, deleted: true, id });
      t.is((await get(`/data-exports/${id}`)).status, 404);
      t.deepEqual((await get("/data-exports")).body.dataExports, []);
      t.is((await del(`/data-exports/${id}`)).status, 404);
      api.clock.advance(2 * DAY);
      await runJobs();
      t.deepEqual(await s3.listKeys(BUCKET), files, "files already written stay, and nothing more is written");
    },
  );
}
