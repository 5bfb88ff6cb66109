import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test, { type ExecutionContext } from "ava";
import knexFactory, { type Knex } from "knex";
import * as idleBetweenRuns from "../../../adapters/knex/migrations/0021-warehouse-syncs-idle-between-runs.js";
import { createCompanyFixture, createMemberKeyFixture } from "../../../fixtures/companies.js";
import { ListRepository } from "../../../core/lists/ports.js";
import { Clock } from "../../../core/ports/clock.js";
import { IdGenerator } from "../../../core/ports/id-generator.js";
import type { Job } from "../../../core/ports/job-queue.js";
import { SecretBox } from "../../../core/ports/secret-box.js";
import { DirectImport } from "../../../core/subscriber-imports/direct-import.js";
import { SubscriberImportRepository } from "../../../core/subscriber-imports/ports.js";
import { WarehouseConnectionRepository, WarehouseReader, WarehouseSyncRepository } from "../../../core/warehouse/ports.js";
import { RunWarehouseSync } from "../../../core/warehouse/run-warehouse-sync.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { pacedCaller } from "../../helpers/paced-caller.js";
import { dialects, withSearchPath, type Dialect } from "../../helpers/databases.js";

const NOW = "2026-11-22T10:00:00.000Z";
const HOUR = 3_600_000;
const BASE_URL = process.env.TEST_DATABASE_URL;
/** The warehouse's password: it must appear in no response and no stored column. */
const PASSWORD = "Wh-Pa55-9f3c7e1d-never-shown";

/** A customer table in a Postgres schema of its own: the company's warehouse. */
interface Warehouse {
  readonly schema: string;
  /** The connection URL, with a password and the schema as search_path. */
  readonly url: string;
  readonly db: Knex;
  readonly table: () => Knex.QueryBuilder;
  count(): Promise<number>;
}

async function warehouse(t: ExecutionContext, baseUrl: string): Promise<Warehouse> {
  const schema = `wh_${randomBytes(5).toString("hex")}`;
  const db = knexFactory({ client: "pg", connection: baseUrl, pool: { min: 0, max: 2 } });
  await db.raw("create schema ??", [schema]);
  await db.schema.withSchema(schema).createTable("customers", (table) => {
    table.increments("id");
    table.text("email");
    table.text("first_name");
    table.text("plan");
    table.integer("seats");
    table.timestamp("updated_at", { useTz: true, precision: 6 }).notNullable();
  });
  t.teardown(async () => {
    await db.raw("drop schema if exists ?? cascade", [schema]);
    await db.destroy();
  });
  const url = new URL(withSearchPath(baseUrl, schema));
  url.password = PASSWORD;
  const table = () => db.withSchema(schema).table("customers");
  return { schema, url: url.toString(), db, table, count: async () => Number((await table().count({ n: "*" }))[0]!.n) };
}

/** A SQLite file warehouse in a directory of its own, removed after the test. */
function sqliteWarehouse(t: ExecutionContext): { path: string; file: Knex } {
  const dir = mkdtempSync(join(tmpdir(), "warehouse-"));
  const path = join(dir, "crm.sqlite");
  const file = knexFactory({ client: "better-sqlite3", connection: { filename: path }, useNullAsDefault: true });
  t.teardown(async () => {
    await file.destroy();
    rmSync(dir, { recursive: true, force: true });
  });
  return { path, file };
}

const customer = (email: string | null, firstName: string | null, plan: string | null, seats: number | null, updatedAt: string) => ({
  email,
  first_name: firstName,
  plan,
  seats,
  updated_at: updatedAt,
});

/** The app, two companies, a worker run by hand, and every response body kept for the password scan. */
async function setup(t: ExecutionContext, dialect: Dialect, allowPrivateDestinations = true) {
  const api = await apiFixture(t, dialect, { allowPrivateDestinations });
  const { container, knex } = api.runtime;
  const a = await createCompanyFixture(container, { name: "Acme" });
  const b = await createCompanyFixture(container, { name: "Beta" });
  const worker = createWorker(container, { concurrency: 1 }, { push: false });
  const bodies: string[] = [];
  // Company A's owner calls go through paced keys: a test asks more than 20 times a second on a fast machine.
  const paced = await pacedCaller(api, a);
  const call: ApiFixture["call"] = async (method, path, options = {}) => {
    const { key, ...rest } = options;
    const response = key === a.ownerKey ? await paced(method, path, rest) : await api.call(method, path, options);
    bodies.push(JSON.stringify(response.body));
    return response;
  };
  const post = (path: string, body: unknown, key = a.ownerKey) => call("POST", `/api/v1${path}`, { key, body });
  const get = (path: string, key = a.ownerKey) => call("GET", `/api/v1${path}`, { key });
  const patch = (path: string, body: unknown, key = a.ownerKey) => call("PATCH", `/api/v1${path}`, { key, body });
  const sync = async (id: string, key = a.ownerKey) => (await get(`/warehouse-syncs/${id}`, key)).body.sync;
  const contacts = async (listId?: string) => {
    const response = await get(`/subscribers?limit=100${listId ? `&listId=${listId}` : ""}`);
    t.is(response.status, 200);
    return new Map<string, { firstName: string | null; customAttributes: Record<string, unknown> }>(
      (response.body.subscribers as Array<{ email: string; firstName: string | null; customAttributes: Record<string, unknown> }>).map((s) => [s.email, s]),
    );
  };
  /** Every stored column of every table of the app's database, as text. */
  const storedText = async (): Promise<string> => {
    const tables: string[] =
      dialect.name === "sqlite"
        ? (await knex.raw("select name from sqlite_master where type = 'table'")).map((row: { name: string }) => row.name)
        : (await knex.raw("select table_name from information_schema.tables where table_schema = current_schema()")).rows.map(
            (row: { table_name: string }) => row.table_name,
          );
    const dumps: string[] = [];
    for (const table of tables) dumps.push(JSON.stringify(await knex(table).select()));
    return dumps.join("\n");
  };
  return { api, a, b, knex, container, worker, post, get, patch, sync, contacts, bodies, storedText, runJobs: () => worker.runDue() };
}

const MAPPING = {
  emailColumn: "email",
  firstNameColumn: "first_name",
  attributes: [
    { column: "plan", attribute: "plan" },
    { column: "seats", attribute: "seats" },
  ],
};
const QUERY = "select id, email, first_name, plan, seats, updated_at from customers";

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: warehouse syncs: ${title}`;
  const pgTest = BASE_URL ? test : test.skip;

  pgTest(name("a sync is idle until asked to run; a run imports the rows, later runs read past the cursor, a full resync reads all"), async (t) => {
    const { post, get, sync, contacts, runJobs, bodies, storedText } = await setup(t, dialect);
    const wh = await warehouse(t, BASE_URL!);
    await wh
      .table()
      .insert([
        customer("ada@example.com", "Ada", "pro", 3, "2026-01-01 10:00:00.000001+00"),
        customer("Bob@Example.com", "Bob", "free", 1, "2026-01-01 10:00:00.000002+00"),
        customer("carol@example.com", "Carol", "pro", 5, "2026-01-02 10:00:00+00"),
        customer("dan@example.com", null, null, null, "2026-01-03 10:00:00+00"),
      ]);
    const list = (await post("/lists", { name: "Warehouse customers" })).body.list;

    const connected = await post("/warehouse-connections", { name: "Analytics", kind: "postgres", url: wh.url });
    t.is(connected.status, 200);
    t.true(connected.body.success);
    const connection = connected.body.connection;
    t.regex(connection.id, /^whc_/);
    t.like(connection, { name: "Analytics", kind: "postgres", hasPassword: true, createdAt: NOW });
    t.true(connection.url.includes(":****@"));
    t.false(connection.url.includes(PASSWORD));
    t.deepEqual(
      (await get("/warehouse-connections")).body.connections.map((c: { id: string }) => c.id),
      [connection.id],
    );

    const created = await post("/warehouse-syncs", {
      connectionId: connection.id,
      name: "Customers",
      query: `${QUERY};`,
      mapping: MAPPING,
      cursorColumn: "updated_at",
      listIds: [list.id],
      optInMode: "confirmed",
      triggerAutomations: false,
      frequency: "hourly",
    });
    t.is(created.status, 200);
    const id = created.body.sync.id as string;
    t.regex(id, /^whs_/);
    t.like(created.body.sync, {
      connectionId: connection.id,
      name: "Customers",
      kind: "subscribers",
      cursorColumn: "updated_at",
      cursorValue: null,
      listIds: [list.id],
      optInMode: "confirmed",
      triggerAutomations: false,
      frequency: "hourly",
      isEnabled: true,
      fullResyncRequested: false,
      status: "idle",
      nextRunAt: new Date(Date.parse(NOW) + HOUR).toISOString(),
      lastRunAt: null,
      lastSuccessAt: null,
      lastError: null,
      lastErrorAt: null,
      consecutiveFailures: 0,
      latestRun: null,
    });
    t.deepEqual(created.body.sync.mapping, { ...MAPPING });
    // Created is not run: nothing is queued until asked or due.
    await runJobs();
    t.like(await sync(id), { status: "idle", lastRunAt: null, latestRun: null });
    t.deepEqual((await get(`/warehouse-syncs/${id}/runs`)).body.runs, []);
    t.is((await contacts(list.id)).size, 0);

    // First run, asked for: every row becomes a contact of the list, with its attributes.
    const asked = await post(`/warehouse-syncs/${id}/run`, {});
    t.is(asked.status, 202);
    t.like(asked.body, { alreadyRunning: false, run: { status: "queued", isManual: true, isFullResync: false, cursorFrom: null } });
    t.like(await sync(id), { status: "queued", nextRunAt: null, latestRun: { id: asked.body.run.id, status: "queued" } });
    await runJobs();
    const first = await sync(id);
    t.like(first, { status: "idle", cursorValue: "2026-01-03 10:00:00+00", lastRunAt: NOW, lastSuccessAt: NOW, lastError: null, consecutiveFailures: 0 });
    t.is(first.nextRunAt, new Date(Date.parse(NOW) + HOUR).toISOString());
    t.like(first.latestRun, {
      id: asked.body.run.id,
      status: "succeeded",
      isManual: true,
      isFullResync: false,
      rowsRead: 4,
      rowsUnchanged: 0,
      rowsSynced: 4,
      rowsSkipped: 0,
      rowsFailed: 0,
      errorSamples: [],
      cursorFrom: null,
      cursorTo: "2026-01-03 10:00:00+00",
      rowLimitReached: false,
      error: null,
      startedAt: NOW,
      finishedAt: NOW,
    });
    t.is(first.latestRun.subscriberImportIds.length, 1);
    t.like(first.latestRun.imports[0], {
      id: first.latestRun.subscriberImportIds[0],
      status: "completed",
      totalRows: 4,
      processedCount: 4,
      addedCount: 4,
      updatedCount: 0,
      skippedCount: 0,
      failedCount: 0,
      error: null,
      startedAt: NOW,
      finishedAt: NOW,
    });
    const imported = (await get(`/subscribers/imports/${first.latestRun.subscriberImportIds[0]}`)).body.import;
    t.like(imported, { status: "completed", duplicateStrategy: "merge", listIds: [list.id], addedCount: 4 });
    let members = await contacts(list.id);
    t.deepEqual([...members.keys()].sort(), ["ada@example.com", "bob@example.com", "carol@example.com", "dan@example.com"]);
    t.like(members.get("ada@example.com"), { firstName: "Ada", customAttributes: { plan: "pro", seats: 3 } });
    t.like(members.get("dan@example.com"), { firstName: null, customAttributes: { plan: null, seats: null } });

    // Second run: only rows past the cursor; Carol was touched without a change.
    await wh.table().insert(customer("eve@example.com", "Eve", "team", 10, "2026-01-04 10:00:00+00"));
    await wh.table().where({ email: "Bob@Example.com" }).update({ first_name: "Robert", seats: 2, updated_at: "2026-01-05 10:00:00+00" });
    await wh.table().where({ email: "carol@example.com" }).update({ updated_at: "2026-01-06 10:00:00+00" });
    const manual = await post(`/warehouse-syncs/${id}/run`, {});
    t.is(manual.status, 202);
    t.like(manual.body, {
      success: true,
      alreadyRunning: false,
      run: { status: "queued", isManual: true, isFullResync: false, cursorFrom: "2026-01-03 10:00:00+00" },
    });
    const again = await post(`/warehouse-syncs/${id}/run`, {});
    t.is(again.status, 202);
    t.like(again.body, { alreadyRunning: true, run: { id: manual.body.run.id } });
    await runJobs();
    const second = await sync(id);
    t.like(second, { status: "idle", cursorValue: "2026-01-06 10:00:00+00" });
    t.like(second.latestRun, {
      id: manual.body.run.id,
      status: "succeeded",
      isManual: true,
      rowsRead: 3,
      rowsUnchanged: 1,
      rowsSynced: 2,
      rowsSkipped: 0,
      rowsFailed: 0,
      cursorTo: "2026-01-06 10:00:00+00",
    });
    t.like(second.latestRun.imports[0], { totalRows: 2, addedCount: 1, updatedCount: 1 });
    members = await contacts(list.id);
    t.is(members.size, 5);
    t.like(members.get("bob@example.com"), { firstName: "Robert", customAttributes: { plan: "free", seats: 2 } });
    t.like(members.get("eve@example.com"), { firstName: "Eve", customAttributes: { plan: "team", seats: 10 } });

    // Nothing new: a run reads nothing and keeps the cursor.
    await post(`/warehouse-syncs/${id}/run`, {});
    await runJobs();
    t.like(await sync(id), { cursorValue: "2026-01-06 10:00:00+00", latestRun: { rowsRead: 0, rowsSynced: 0, subscriberImportIds: [] } });

    // Full resync: every row is read again; all are unchanged, so no import is needed.
    const full = await post(`/warehouse-syncs/${id}/run`, { fullResync: true });
    t.like(full.body.run, { isFullResync: true, cursorFrom: null });
    t.true((await sync(id)).fullResyncRequested);
    await runJobs();
    const resynced = await sync(id);
    t.like(resynced, { fullResyncRequested: false, cursorValue: "2026-01-06 10:00:00+00" });
    t.like(resynced.latestRun, { isFullResync: true, rowsRead: 5, rowsUnchanged: 5, rowsSynced: 0, subscriberImportIds: [], imports: [] });

    const runs = (await get(`/warehouse-syncs/${id}/runs`)).body.runs;
    t.is(runs.length, 4);
    t.deepEqual(
      runs.map((r: { rowsRead: number }) => r.rowsRead),
      [5, 0, 3, 4],
    );
    const listed = (await get("/warehouse-syncs")).body;
    t.deepEqual(
      listed.syncs.map((s: { id: string }) => s.id),
      [id],
    );
    t.deepEqual(listed.pagination, { limit: 50, nextCursor: null, hasMore: false });
    t.is(listed.syncs[0].latestRun.id, resynced.latestRun.id);

    // The password is in no response and in no stored column.
    t.false(bodies.some((body) => body.includes(PASSWORD)));
    t.false((await storedText()).includes(PASSWORD));
  });

  pgTest(
    name("the first scheduled run comes one interval after creation (isManual false), the next ones follow the frequency; pausing stops them"),
    async (t) => {
      const { post, patch, sync, runJobs, api } = await setup(t, dialect);
      const wh = await warehouse(t, BASE_URL!);
      await wh.table().insert(customer("ada@example.com", "Ada", "pro", 3, "2026-01-01 10:00:00+00"));
      const connection = (await post("/warehouse-connections", { name: "W", kind: "postgres", url: wh.url })).body.connection;
      const id = (
        await post("/warehouse-syncs", {
          connectionId: connection.id,
          name: "S",
          query: QUERY,
          mapping: MAPPING,
          cursorColumn: "updated_at",
          frequency: "every_15_minutes",
        })
      ).body.sync.id;
      t.like(await sync(id), { status: "idle", nextRunAt: new Date(Date.parse(NOW) + 15 * 60_000).toISOString(), latestRun: null });
      api.clock.advance(14 * 60_000);
      await runJobs();
      t.like(await sync(id), { status: "idle", latestRun: null }, "not due yet");

      api.clock.advance(60_000);
      await runJobs();
      const first = await sync(id);
      t.like(first, { status: "idle", lastRunAt: api.clock.now().toISOString() });
      t.like(first.latestRun, { status: "succeeded", isManual: false, rowsRead: 1, rowsSynced: 1 });
      t.is(first.nextRunAt, new Date(api.clock.now().getTime() + 15 * 60_000).toISOString());
      await wh.table().insert(customer("bob@example.com", "Bob", "free", 1, "2026-01-02 10:00:00+00"));

      api.clock.advance(10 * 60_000);
      await runJobs();
      t.is((await sync(id)).latestRun.id, first.latestRun.id, "not due yet");

      api.clock.advance(6 * 60_000);
      await runJobs();
      const scheduled = await sync(id);
      t.not(scheduled.latestRun.id, first.latestRun.id);
      t.like(scheduled.latestRun, { status: "succeeded", isManual: false, rowsRead: 1, rowsSynced: 1 });

      const paused = await patch(`/warehouse-syncs/${id}`, { isEnabled: false });
      t.is(paused.status, 200);
      t.like(paused.body.sync, { isEnabled: false, nextRunAt: null });
      api.clock.advance(2 * HOUR);
      await runJobs();
      t.is((await sync(id)).latestRun.id, scheduled.latestRun.id, "a paused sync is not scheduled");
      const resumed = await patch(`/warehouse-syncs/${id}`, { isEnabled: true, frequency: "daily" });
      t.like(resumed.body.sync, { isEnabled: true, frequency: "daily", nextRunAt: api.clock.now().toISOString() });
      t.is((await patch(`/warehouse-syncs/${id}`, {})).status, 400);
      t.is((await patch(`/warehouse-syncs/${id}`, { frequency: "weekly" })).status, 422);
    },
  );

  pgTest(
    name("rows without a valid email are skipped with error samples; the row cap leaves the rest, equal cursors included, for the next run"),
    async (t) => {
      const { post, sync, contacts, runJobs } = await setup(t, dialect);
      const wh = await warehouse(t, BASE_URL!);
      await wh.table().insert([
        customer("ada@example.com", "Ada", "pro", 1, "2026-01-01 00:00:01+00"),
        customer(null, "Nobody", "pro", 1, "2026-01-01 00:00:02+00"),
        customer("not-an-email", "Bad", "pro", 1, "2026-01-01 00:00:03+00"),
        customer("ADA@example.com", "Ada again", "pro", 1, "2026-01-01 00:00:04+00"),
        customer("long@example.com", "L".repeat(300), "pro", 1, "2026-01-01 00:00:05+00"),
        // Two rows of one cursor value across the cap: both wait for the next run.
        customer("bob@example.com", "Bob", "free", 2, "2026-01-01 00:00:06+00"),
        customer("carol@example.com", "Carol", "free", 2, "2026-01-01 00:00:06+00"),
      ]);
      const connection = (await post("/warehouse-connections", { name: "W", kind: "postgres", url: wh.url })).body.connection;
      const created = await post("/warehouse-syncs", {
        connectionId: connection.id,
        name: "S",
        query: QUERY,
        mapping: MAPPING,
        cursorColumn: "updated_at",
        maxRowsPerRun: 6,
      });
      t.is(created.status, 200);
      const id = created.body.sync.id;
      t.is(created.body.sync.maxRowsPerRun, 6);
      await post(`/warehouse-syncs/${id}/run`, {});
      await runJobs();
      const first = await sync(id);
      t.like(first.latestRun, {
        status: "succeeded",
        rowsRead: 5,
        rowsUnchanged: 0,
        rowsSynced: 1,
        rowsSkipped: 3,
        rowsFailed: 1,
        rowLimitReached: true,
        cursorTo: "2026-01-01 00:00:05+00",
      });
      t.deepEqual(first.latestRun.errorSamples, [
        { row: 2, reason: "missing email (column email is empty)" },
        { row: 3, reason: 'invalid email address: "not-an-email"' },
        { row: 4, reason: "duplicate email address: row 1 of this run has it" },
        { row: 5, reason: "first name (column first_name) is longer than 255 characters" },
      ]);
      t.is(first.cursorValue, "2026-01-01 00:00:05+00");
      t.deepEqual([...(await contacts()).keys()], ["ada@example.com"]);

      await post(`/warehouse-syncs/${id}/run`, {});
      await runJobs();
      const second = await sync(id);
      t.like(second.latestRun, { rowsRead: 2, rowsSynced: 2, rowsSkipped: 0, rowLimitReached: false, errorSamples: [], cursorTo: "2026-01-01 00:00:06+00" });
      t.deepEqual([...(await contacts()).keys()].sort(), ["ada@example.com", "bob@example.com", "carol@example.com"]);
    },
  );

  pgTest(name("queries run read-only: writes are refused and the warehouse is unchanged"), async (t) => {
    const { post, sync, contacts, runJobs } = await setup(t, dialect);
    const wh = await warehouse(t, BASE_URL!);
    await wh
      .table()
      .insert([
        customer("ada@example.com", "Ada", "pro", 1, "2026-01-01 00:00:01+00"),
        customer("bob@example.com", "Bob", "free", 1, "2026-01-01 00:00:02+00"),
      ]);
    // A function that deletes: only the read-only transaction stands between it and the table.
    await wh.db.raw(`create function ??.wipe() returns integer language plpgsql as $$ begin delete from ${wh.schema}.customers; return 1; end $$`, [wh.schema]);
    const connection = (await post("/warehouse-connections", { name: "W", kind: "postgres", url: wh.url })).body.connection;

    for (const query of [
      "delete from customers returning *",
      "update customers set plan = 'hacked' returning *",
      "with gone as (delete from customers returning *) select * from gone",
      "select * from customers; delete from customers",
      "drop table customers",
    ]) {
      const refused = await post("/warehouse-syncs", { connectionId: connection.id, name: "W", query, mapping: MAPPING });
      t.is(refused.status, 400, query);
      t.like(refused.body, { success: false, code: "invalid_input" });
      t.regex(refused.body.error, /^The query could not be run: /);
    }
    t.is(await wh.count(), 2);

    const created = await post("/warehouse-syncs", {
      connectionId: connection.id,
      name: "W",
      query: "select * from customers where wipe() = 1",
      mapping: MAPPING,
      cursorColumn: "updated_at",
    });
    t.is(created.status, 200);
    await post(`/warehouse-syncs/${created.body.sync.id}/run`, {});
    await runJobs();
    const failed = await sync(created.body.sync.id);
    // Idle between runs: the failure shows in lastError, consecutiveFailures and the run.
    t.like(failed, {
      status: "idle",
      cursorValue: null,
      lastError: "The warehouse query failed: cannot execute DELETE in a read-only transaction",
      lastErrorAt: NOW,
      consecutiveFailures: 1,
      lastSuccessAt: null,
      nextRunAt: new Date(Date.parse(NOW) + HOUR).toISOString(),
    });
    t.like(failed.latestRun, { status: "failed", error: failed.lastError, rowsRead: 0, subscriberImportIds: [], finishedAt: NOW });
    t.is(await wh.count(), 2);
    t.is((await wh.table().where({ plan: "hacked" })).length, 0);
    t.is((await contacts()).size, 0);
  });

  pgTest(name("a query past the statement timeout fails the run with lastError, and failures back off"), async (t) => {
    const { post, sync, runJobs } = await setup(t, dialect);
    const wh = await warehouse(t, BASE_URL!);
    await wh.table().insert(customer("ada@example.com", "Ada", "pro", 1, "2026-01-01 00:00:01+00"));
    const connection = (await post("/warehouse-connections", { name: "W", kind: "postgres", url: wh.url })).body.connection;
    const created = await post("/warehouse-syncs", {
      connectionId: connection.id,
      name: "Slow",
      query: "select c.* from customers c cross join lateral (select pg_sleep(10)) s",
      mapping: MAPPING,
      statementTimeoutSeconds: 1,
    });
    t.is(created.status, 200);
    const id = created.body.sync.id;
    await post(`/warehouse-syncs/${id}/run`, {});
    const started = Date.now();
    await runJobs();
    t.true(Date.now() - started < 9_000, "the statement was cancelled before pg_sleep ended");
    const failed = await sync(id);
    t.is(failed.status, "idle");
    t.regex(failed.lastError, /^The warehouse query failed: the query ran longer than the statement timeout of 1 s/);
    t.like(failed, { consecutiveFailures: 1, lastErrorAt: NOW, nextRunAt: new Date(Date.parse(NOW) + HOUR).toISOString() });
    t.like(failed.latestRun, { status: "failed", isFullResync: true, rowsRead: 0 });

    await post(`/warehouse-syncs/${id}/run`, {});
    await runJobs();
    t.like(await sync(id), { status: "idle", consecutiveFailures: 2, nextRunAt: new Date(Date.parse(NOW) + 2 * HOUR).toISOString() });
  });

  pgTest(name("another company's or an unknown sync is not found; scopes and inputs are checked and nothing is saved"), async (t) => {
    const { api, a, b, post, get, patch, container } = await setup(t, dialect);
    const wh = await warehouse(t, BASE_URL!);
    const connection = (await post("/warehouse-connections", { name: "W", kind: "postgres", url: wh.url })).body.connection;
    const disabled = (await post("/warehouse-syncs", { connectionId: connection.id, name: "S", query: QUERY, mapping: MAPPING, isEnabled: false })).body.sync;
    t.like(disabled, { status: "idle", isEnabled: false, nextRunAt: null, latestRun: null }, "a disabled sync is never due");
    const id = disabled.id as string;

    const notFound = { success: false, code: "not_found", error: "Warehouse sync not found" };
    for (const [method, path, key] of [
      ["GET", `/warehouse-syncs/${id}`, b.ownerKey],
      ["GET", "/warehouse-syncs/whs_01UNKNOWN", a.ownerKey],
      ["GET", `/warehouse-syncs/${id}/runs`, b.ownerKey],
      ["POST", `/warehouse-syncs/${id}/run`, b.ownerKey],
      ["PATCH", `/warehouse-syncs/${id}`, b.ownerKey],
    ] as const) {
      const response = await api.call(method, `/api/v1${path}`, { key, body: method === "PATCH" ? { name: "x" } : method === "POST" ? {} : undefined });
      t.is(response.status, 404, `${method} ${path}`);
      t.deepEqual(response.body, notFound);
    }
    t.deepEqual((await get("/warehouse-syncs", b.ownerKey)).body.syncs, []);
    t.deepEqual((await get("/warehouse-connections", b.ownerKey)).body.connections, []);
    const foreign = await post("/warehouse-syncs", { connectionId: connection.id, name: "S", query: QUERY, mapping: MAPPING }, b.ownerKey);
    t.is(foreign.status, 404);
    t.deepEqual(foreign.body, { success: false, code: "not_found", error: "Warehouse connection not found" });

    const reader = await createMemberKeyFixture(container, a.companyId, { scopes: ["warehouse:read"] });
    t.is((await get(`/warehouse-syncs/${id}`, reader.key)).status, 200);
    const denied = await post(`/warehouse-syncs/${id}/run`, {}, reader.key);
    t.is(denied.status, 403);
    t.is(denied.body.error, "API key is missing required scope: warehouse:write");
    const outsider = await createMemberKeyFixture(container, a.companyId, { scopes: ["subscribers:read"] });
    t.is((await get("/warehouse-syncs", outsider.key)).body.error, "API key is missing required scope: warehouse:read");

    const otherList = (await post("/lists", { name: "Theirs" }, b.ownerKey)).body.list;
    const bad: Array<[unknown, number, RegExp]> = [
      [{ connectionId: connection.id, name: "S", query: QUERY, mapping: MAPPING, frequency: "weekly" }, 422, /frequency/],
      [{ connectionId: connection.id, name: "S", query: QUERY, mapping: { firstNameColumn: "first_name" } }, 422, /mapping/],
      [{ connectionId: connection.id, name: "S", query: QUERY, mapping: MAPPING, optInMode: "maybe" }, 422, /optInMode/],
      [{ connectionId: connection.id, name: "S", query: QUERY, mapping: MAPPING, maxRowsPerRun: 0 }, 422, /maxRowsPerRun/],
      [{ connectionId: connection.id, name: "S", query: QUERY, mapping: { ...MAPPING, emailColumn: "mail" } }, 400, /no column named 'mail'/],
      [{ connectionId: connection.id, name: "S", query: QUERY, mapping: MAPPING, cursorColumn: "changed_at" }, 400, /no column named 'changed_at'/],
      [{ connectionId: connection.id, name: "S", query: QUERY, mapping: MAPPING, listIds: [otherList.id] }, 400, /List not found/],
      [
        { connectionId: connection.id, name: "S", query: QUERY, mapping: { ...MAPPING, attributes: [{ column: "plan", attribute: "account" }] } },
        400,
        /reserved/,
      ],
      [{ connectionId: connection.id, name: "S", query: "select * from no_such_table", mapping: MAPPING }, 400, /does not exist/],
    ];
    for (const [body, status, message] of bad) {
      const response = await post("/warehouse-syncs", body);
      t.is(response.status, status, JSON.stringify(body));
      t.false(response.body.success);
      t.regex(JSON.stringify(response.body), message);
    }
    t.is((await get("/warehouse-syncs")).body.syncs.length, 1);
    t.is((await patch(`/warehouse-syncs/${id}`, { listIds: [otherList.id] })).status, 400);
  });

  test(name("private and reserved warehouse hosts and sqlite files are refused unless ALLOW_PRIVATE_DESTINATIONS"), async (t) => {
    const { post, get } = await setup(t, dialect, false);
    const hosts = [
      "127.0.0.1",
      "localhost",
      "[::1]",
      "[::ffff:127.0.0.1]",
      "169.254.169.254",
      "10.0.0.5",
      "172.16.5.4",
      "192.168.1.10",
      "100.64.0.1",
      "0.0.0.0",
    ];
    for (const host of hosts) {
      const response = await post("/warehouse-connections", { name: "W", kind: "postgres", url: `postgres://reader:${PASSWORD}@${host}:5432/test` });
      t.is(response.status, 400, host);
      t.is(response.body.code, "connection_failed");
      t.regex(response.body.error, /private or reserved address/);
      t.false(JSON.stringify(response.body).includes(PASSWORD));
    }
    const sqlite = await post("/warehouse-connections", { name: "W", kind: "sqlite", url: "sqlite:/tmp/warehouse.sqlite" });
    t.is(sqlite.status, 400);
    t.like(sqlite.body, { success: false, code: "invalid_input" });
    const bad = await post("/warehouse-connections", { name: "W", kind: "postgres", url: "postgres://reader:x@db.example.com/db?password=y" });
    t.is(bad.status, 400);
    t.is((await post("/warehouse-connections", { name: "W", kind: "mysql", url: "mysql://x" })).status, 422);
    t.deepEqual((await get("/warehouse-connections")).body.connections, []);
  });

  test(name("a sqlite warehouse file is read read-only, incrementally on an integer cursor, with a statement timeout"), async (t) => {
    const { post, sync, contacts, runJobs } = await setup(t, dialect);
    const { path, file } = sqliteWarehouse(t);
    await file.schema.createTable("people", (table) => {
      table.integer("id").primary();
      table.text("mail");
      table.text("name");
      table.float("score");
      table.integer("version");
    });
    await file("people").insert([
      { id: 1, mail: "ada@example.com", name: "Ada", score: 9.5, version: 2 },
      { id: 2, mail: "bob@example.com", name: "Bob", score: 7, version: 10 },
    ]);
    const connected = await post("/warehouse-connections", { name: "File", kind: "sqlite", url: `sqlite:${path}` });
    t.is(connected.status, 200);
    t.like(connected.body.connection, { kind: "sqlite", hasPassword: false });
    const refused = await post("/warehouse-syncs", {
      connectionId: connected.body.connection.id,
      name: "W",
      query: "delete from people",
      mapping: { emailColumn: "mail" },
    });
    t.is(refused.status, 400);
    t.is(refused.body.code, "invalid_input");

    const mapping = { emailColumn: "mail", firstNameColumn: "name", attributes: [{ column: "score", attribute: "score" }] };
    const created = await post("/warehouse-syncs", {
      connectionId: connected.body.connection.id,
      name: "People",
      query: "select * from people",
      mapping,
      cursorColumn: "version",
    });
    t.is(created.status, 200);
    const id = created.body.sync.id;
    await post(`/warehouse-syncs/${id}/run`, {});
    await runJobs();
    t.like(await sync(id), { status: "idle", cursorValue: "10", latestRun: { status: "succeeded", rowsRead: 2, rowsSynced: 2 } });
    t.like((await contacts()).get("ada@example.com"), { firstName: "Ada", customAttributes: { score: 9.5 } });

    // 9 < 10 numerically (but not as text): the cursor compares as a number.
    await file("people").insert({ id: 3, mail: "carol@example.com", name: "Carol", score: 1, version: 11 });
    await file("people").where({ id: 1 }).update({ version: 9 });
    await post(`/warehouse-syncs/${id}/run`, {});
    await runJobs();
    t.like(await sync(id), { cursorValue: "11", latestRun: { rowsRead: 1, rowsSynced: 1, cursorFrom: "10", cursorTo: "11" } });
    t.is(Number((await file("people").count({ n: "*" }))[0]!.n), 3);

    const slow = await post("/warehouse-syncs", {
      connectionId: connected.body.connection.id,
      name: "Slow",
      query: "with recursive n(x) as (select 1 union all select x + 1 from n where x < 1000000000) select 'slow@example.com' as mail, max(x) as x from n",
      mapping: { emailColumn: "mail" },
      statementTimeoutSeconds: 1,
    });
    t.is(slow.status, 200);
    await post(`/warehouse-syncs/${slow.body.sync.id}/run`, {});
    await runJobs();
    const timedOut = await sync(slow.body.sync.id);
    t.is(timedOut.status, "idle");
    t.is(timedOut.lastError, "The warehouse query failed: the query ran longer than the statement timeout of 1 s");
  });

  test(name("a sync a former version left `failed` after a failed run is idle once migration 0021 has run"), async (t) => {
    const { post, sync, knex } = await setup(t, dialect);
    const { path, file } = sqliteWarehouse(t);
    await file.schema.createTable("people", (table) => table.text("mail"));
    const connection = (await post("/warehouse-connections", { name: "File", kind: "sqlite", url: `sqlite:${path}` })).body.connection;
    const id = (
      await post("/warehouse-syncs", { connectionId: connection.id, name: "Old", query: "select mail from people", mapping: { emailColumn: "mail" } })
    ).body.sync.id;
    await knex("warehouse_syncs").where({ id }).update({ status: "failed", last_error: "The warehouse query failed: boom", consecutive_failures: 1 });

    await idleBetweenRuns.up(knex);
    t.like(await sync(id), { status: "idle", lastError: "The warehouse query failed: boom", consecutiveFailures: 1 });
    await idleBetweenRuns.down(knex);
    t.is((await knex("warehouse_syncs").where({ id }).first()).status, "failed");
  });

  pgTest(name("a run whose worker died is started again from the cursor: the dead attempt's import is failed, nothing is counted twice"), async (t) => {
    const { a, post, sync, runJobs, container } = await setup(t, dialect);
    const wh = await warehouse(t, BASE_URL!);
    await wh
      .table()
      .insert([
        customer("ada@example.com", "Ada", "pro", 1, "2026-01-01 00:00:01+00"),
        customer("bob@example.com", "Bob", "pro", 1, "2026-01-01 00:00:02+00"),
        customer("carol@example.com", "Carol", "pro", 1, "2026-01-01 00:00:03+00"),
      ]);
    const connection = (await post("/warehouse-connections", { name: "W", kind: "postgres", url: wh.url })).body.connection;
    const created = (await post("/warehouse-syncs", { connectionId: connection.id, name: "S", query: QUERY, mapping: MAPPING, cursorColumn: "updated_at" }))
      .body.sync;
    const runId = (await post(`/warehouse-syncs/${created.id}/run`, {})).body.run.id as string;

    // The same use case, over a reader whose process is lost after its first batch.
    const reader = container.get<WarehouseReader>(WarehouseReader);
    const lost: WarehouseReader = {
      check: (source, timeoutMs) => reader.check(source, timeoutMs),
      columns: (source, query, timeoutMs) => reader.columns(source, query, timeoutMs),
      async *read(source, read) {
        for await (const batch of reader.read(source, read)) {
          yield batch;
          throw new Error("worker lost");
        }
      },
    };
    const dying = new RunWarehouseSync(
      container.get(WarehouseSyncRepository),
      container.get(WarehouseConnectionRepository),
      container.get(ListRepository),
      lost,
      container.get(SecretBox),
      container.get(SubscriberImportRepository),
      container.get(DirectImport),
      container.get(IdGenerator),
      container.get(Clock),
    );
    const job = (attempts: number, id: string) =>
      ({ id: "job_1", type: "warehouse_syncs.run", payload: { runId: id }, companyId: a.companyId, attempts, maxAttempts: 3 }) as unknown as Job;
    const work = (id: string) => ({ companyId: a.companyId, payload: { runId: id } });
    await t.throwsAsync(dying.runJob(work(runId), job(1, runId)), { message: "worker lost" });
    const halfway = await sync(created.id);
    t.like(halfway, { status: "running", latestRun: { status: "running", rowsRead: 2, rowsSynced: 2 } });
    t.like(halfway.latestRun.imports[0], { status: "running", addedCount: 2 });

    // The job's next attempt (the real reader): every row read again, once each.
    await runJobs();
    const done = await sync(created.id);
    t.like(done, { status: "idle", cursorValue: "2026-01-01 00:00:03+00" });
    t.like(done.latestRun, { id: runId, status: "succeeded", rowsRead: 3, rowsUnchanged: 2, rowsSynced: 1 });
    t.is(done.latestRun.subscriberImportIds.length, 2);
    t.like(done.latestRun.imports[0], { status: "failed", error: "The run was interrupted and started again", addedCount: 2 });
    t.like(done.latestRun.imports[1], { status: "completed", addedCount: 1 });

    // On the last attempt an unexpected error also fails the run (and the job ends with it).
    await wh.table().insert(customer("dave@example.com", "Dave", "pro", 1, "2026-01-01 00:00:04+00"));
    const next = (await post(`/warehouse-syncs/${created.id}/run`, {})).body.run;
    await t.throwsAsync(dying.runJob(work(next.id), job(3, next.id)), { message: "worker lost" });
    const failed = await sync(created.id);
    t.like(failed, { status: "idle", lastError: "The run could not finish: worker lost", consecutiveFailures: 1, cursorValue: "2026-01-01 00:00:03+00" });
    t.like(failed.latestRun, { id: next.id, status: "failed", error: "The run could not finish: worker lost" });
  });
}
