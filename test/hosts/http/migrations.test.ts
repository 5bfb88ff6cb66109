import test, { type ExecutionContext } from "ava";
import type { Knex } from "knex";
import { createCompanyFixture, createMemberKeyFixture, type CompanyFixture } from "../../../fixtures/companies.js";
import { ADVANCE_MIGRATION_JOB } from "../../../core/migrations/advance-migration.js";
import { JobStore } from "../../../core/ports/job-queue.js";
import { Database } from "../../../hosts/tokens.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { JobHandlers } from "../../../hosts/worker/job-handlers.js";
import { apiFixture, type ApiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import type { JsonResponse, RequestOptions } from "../../helpers/http-client.js";
import type { TestRuntimeOptions } from "../../helpers/runtime.js";
import nock from "nock";
import {
  API_KEY_INVALID,
  hostOf,
  interceptCampaigns,
  interceptDiscovery,
  interceptMembers,
  interceptTemplates,
  problem,
  type MailchimpAccount,
  type MailchimpMember,
} from "../../helpers/mailchimp-api.js";

// Mailchimp is served by nock; everything else the tests reach is on loopback.
nock.disableNetConnect();
nock.enableNetConnect(/127\.0\.0\.1|localhost/);

const MIGRATIONS = "/api/v1/migrations";

interface Session {
  readonly api: ApiFixture;
  readonly company: CompanyFixture;
  readonly knex: Knex;
  /** Calls with the company's keys in turn, so a long test stays inside each key's rate budget. */
  call(method: string, path: string, options?: Omit<RequestOptions, "key">): Promise<JsonResponse>;
}

async function session(t: ExecutionContext, dialect: Dialect, options: TestRuntimeOptions = {}): Promise<Session> {
  const api = await apiFixture(t, dialect, options);
  const company = await createCompanyFixture(api.runtime.container);
  const ring = [company.ownerKey];
  for (let i = 0; i < 2; i++)
    ring.push((await createMemberKeyFixture(api.runtime.container, company.companyId, { role: "owner", email: company.ownerEmail })).key);
  let next = 0;
  return {
    api,
    company,
    knex: api.runtime.container.get<Knex>(Database),
    call: (method, path, options = {}) => api.call(method, path, { ...options, key: ring[next++ % ring.length]! }),
  };
}

/** Runs every due job, including the steps they enqueue, until none is left. */
const runJobs = (s: Session): Promise<number> => createWorker(s.api.runtime.container, { concurrency: 1 }, { push: false }).runDue();

/** Runs due jobs one at a time until one migration step ran. */
async function runOneStep(s: Session): Promise<void> {
  const store = s.api.runtime.container.get<JobStore>(JobStore);
  const handlers = s.api.runtime.container.get(JobHandlers);
  for (;;) {
    const [job] = await store.claim("test-stepper", 1, s.api.clock.now(), 60_000);
    if (!job) throw new Error("no migration step is due");
    await handlers.get(job.type)!(job);
    await store.complete(job.id, "test-stepper", s.api.clock.now());
    if (job.type === ADVANCE_MIGRATION_JOB) return;
  }
}

/** Migration steps waiting in the queue. */
async function queuedSteps(s: Session): Promise<number> {
  const row = await s.knex("jobs").where({ type: ADVANCE_MIGRATION_JOB, status: "queued" }).count("* as n").first();
  return Number(row?.n ?? 0);
}

async function createRun(s: Session, body: Record<string, unknown>): Promise<Record<string, any>> {
  const created = await s.call("POST", MIGRATIONS, { body });
  if (created.status !== 200) throw new Error(`run not created: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data;
}

async function getRun(s: Session, id: string): Promise<Record<string, any>> {
  const found = await s.call("GET", `${MIGRATIONS}/${id}`);
  if (found.status !== 200) throw new Error(`run not read: ${found.status} ${JSON.stringify(found.body)}`);
  return found.body.data;
}

async function subscriberCount(s: Session, companyId = s.company.companyId): Promise<number> {
  const row = await s.knex("subscribers").where({ company_id: companyId }).count("* as n").first();
  return Number(row?.n ?? 0);
}

/** Every row of every table, as text: where a secret must not appear. */
async function everyStoredRow(knex: Knex, dialect: Dialect): Promise<string> {
  const tables: string[] =
    dialect.name === "sqlite"
      ? (await knex.raw("select name from sqlite_master where type = 'table'")).map((row: { name: string }) => row.name)
      : (await knex.raw("select table_name from information_schema.tables where table_schema = current_schema()")).rows.map(
          (row: { table_name: string }) => row.table_name,
        );
  const dumps: string[] = [];
  for (const table of tables) dumps.push(JSON.stringify(await knex(table).select("*")));
  return dumps.join("\n");
}

const CSV = [
  "Email Address,First Name,Last Name,Plan,Status",
  "ada@example.com,Ada,Lovelace,pro,active",
  "bob@example.com,Bob,,free,unsubscribed",
  "not-an-email,Cy,,free,",
  "dora@example.com,Dora,Explorer,7,",
].join("\n");

const bigCsv = (rows: number): string =>
  ["email,first_name,score", ...Array.from({ length: rows }, (_, i) => `person${i}@example.com,Person ${i},${i}`)].join("\n");

/** Each Mailchimp test has a data center of its own, so tests running side by side never share interceptors. */
let dataCenters = 30;
const newDataCenter = () => `us${dataCenters++}`;

/** An account as its API reference shapes it: two audiences, twelve campaigns (one plain text), two saved templates. */
function mailchimpAccount(): MailchimpAccount {
  const dataCenter = newDataCenter();
  const newsletter: MailchimpMember[] = [
    { email: "una@example.com", status: "unsubscribed", firstName: "Una" },
    { email: "gone@example.com", status: "cleaned" },
    { email: "pending@example.com", status: "pending", firstName: "Pat" },
    {
      email: "Grace@Example.com",
      status: "subscribed",
      firstName: "Grace",
      lastName: "Hopper",
      mergeFields: {
        ADDRESS: { addr1: "1 Navy Way", addr2: "", city: "Arlington", state: "VA", zip: "22202", country: "US" },
        PHONE: "+1 555 0100",
        BIRTHDAY: "12/09",
        COMPANY: "US Navy",
      },
      tags: ["Customer", "VIP List", "***"],
      signedUpAt: "2024-04-01T10:00:00+00:00",
    },
    ...Array.from({ length: 499 }, (_, i): MailchimpMember => ({ email: `member${i}@example.com`, status: "subscribed", firstName: `Member ${i}` })),
  ];
  return {
    dataCenter,
    apiKey: `8f14e45fceea167a5a36dedd4bea2543-${dataCenter}`,
    audiences: [
      { id: "a1b2c3d4e5", name: "Newsletter", members: newsletter },
      {
        id: "f6e5d4c3b2",
        name: "Beta testers",
        members: [
          { email: "beta1@example.com", status: "subscribed" },
          { email: "beta2@example.com", status: "subscribed" },
        ],
      },
    ],
    campaigns: Array.from({ length: 12 }, (_, i) => ({
      id: `c${String(i).padStart(2, "0")}9e57a1`,
      title: `Newsletter #${i + 1}`,
      subject: `What is new in month ${i + 1}`,
      previewText: `Our picks for month ${i + 1}`,
      type: i === 5 ? ("plaintext" as const) : ("regular" as const),
      html: i === 5 ? "" : `<!doctype html><html><body><h1>Month ${i + 1}</h1><p>Hello *|FNAME|*</p></body></html>`,
      createdAt: `2026-${String(i + 1).padStart(2, "0")}-01T09:00:00+00:00`,
    })),
    templates: [
      { id: 10_001, name: "Monthly newsletter", sections: { header: "<h1>Acme news</h1>", body: "<p>*|FNAME|*, here is what is new.</p>", footer: "" } },
      { id: 10_002, name: "Empty layout", sections: {} },
    ],
  };
}

const NEWSLETTER = "audience:a1b2c3d4e5";

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: ${title}`;

  test(name("csv end to end: discovery, start, the job imports through the subscriber import pipeline, report"), async (t) => {
    const s = await session(t, dialect);
    const created = await s.call("POST", MIGRATIONS, { body: { provider: "csv", csv: CSV } });
    t.is(created.status, 200);
    t.true(created.body.success);
    const run = created.body.data;
    t.regex(run.id, /^mig_/);
    t.is(run.status, "awaiting_approval");
    t.deepEqual(run.discovery, { provider: "csv", resources: [{ id: "contacts", type: "contacts", count: 4, name: "Contacts (CSV)" }] });
    t.deepEqual(run.approvedPlan, { resourceIds: [], resourceOptions: {}, approvedAt: null });
    t.deepEqual(run.report, {
      subscribersQueued: 0,
      draftCampaignsCreated: 0,
      draftSequencesCreated: 0,
      draftTransactionalEmailsCreated: 0,
      templatesCreated: 0,
    });
    t.deepEqual(run.errors, []);
    t.false(JSON.stringify(created.body).includes("ada@example.com"), "the CSV is not returned");
    t.is(await subscriberCount(s), 0, "nothing is imported before the start");

    const started = await s.call("POST", `${MIGRATIONS}/${run.id}/start`, { body: { resourceIds: ["contacts"] } });
    t.is(started.status, 200);
    t.deepEqual(started.body, { success: true, data: { id: run.id, status: "queued" } });
    t.is(await queuedSteps(s), 1);

    await runJobs(s);
    const done = await getRun(s, run.id);
    t.is(done.status, "completed");
    t.truthy(done.startedAt);
    t.truthy(done.completedAt);
    t.deepEqual(done.approvedPlan.resourceIds, ["contacts"]);
    t.deepEqual(done.report, {
      subscribersQueued: 4,
      draftCampaignsCreated: 0,
      draftSequencesCreated: 0,
      draftTransactionalEmailsCreated: 0,
      templatesCreated: 0,
    });
    t.is(done.progress.resourcesDone, 1);
    const [progress] = done.progress.resources;
    t.like(progress, { id: "contacts", type: "contacts", total: 4, processed: 4, queued: 4, skipped: 0, done: true });
    t.regex(progress.importId, /^imp_/);

    // The rows went through the subscriber import pipeline: its record counts them.
    const imported = await s.call("GET", `/api/v1/subscribers/imports/${progress.importId}`);
    t.like(imported.body.import, { status: "completed", totalRows: 4, addedCount: 3, failedCount: 1, failedReasons: { invalid_email: 1 } });

    const listing = await s.call("GET", "/api/v1/subscribers?status=all&limit=100");
    t.deepEqual(listing.body.subscribers.map((sub: { email: string }) => sub.email).sort(), ["ada@example.com", "bob@example.com", "dora@example.com"]);
    const ada = await s.call("GET", "/api/v1/subscribers/ada%40example.com");
    t.like(ada.body.subscriber, { firstName: "Ada", lastName: "Lovelace", status: "active", customAttributes: { Plan: "pro" } });
    const bob = await s.call("GET", "/api/v1/subscribers/bob%40example.com");
    t.is(bob.body.subscriber.status, "unsubscribed");
    const dora = await s.call("GET", "/api/v1/subscribers/dora%40example.com");
    t.deepEqual(dora.body.subscriber.customAttributes, { Plan: 7 });

    // The CSV is stored sealed: no column of the run holds its contacts in plain text.
    const row = await s.knex("migration_runs").where({ id: run.id }).first();
    t.regex(row.source_sealed, /^v1\./);
    t.false(JSON.stringify(row).includes("ada@example.com"));
  });

  test(name("start follows the spec's table: nothing selected, unknown resources, queued unchanged, ended runs refused"), async (t) => {
    const s = await session(t, dialect);
    const run = await createRun(s, { provider: "csv", csv: CSV });
    const start = (body: unknown) => s.call("POST", `${MIGRATIONS}/${run.id}/start`, { body });

    // any + no resource selected -> 400 asking to select one; resourceOptions alone select nothing.
    for (const body of [{}, { resourceIds: [] }, { resourceOptions: { contacts: { statuses: ["active"] } } }]) {
      const refused = await start(body);
      t.is(refused.status, 400, JSON.stringify(body));
      t.deepEqual(refused.body, { success: false, error: "Select at least one resource to migrate: give its ID in resourceIds (see discovery.resources)" });
    }
    const unknown = await start({ resourceIds: ["contacts", "audience:nope"] });
    t.is(unknown.status, 400);
    t.regex(unknown.body.error, /Unknown resource in resourceIds: audience:nope/);
    const misplaced = await start({ resourceIds: ["contacts"], resourceOptions: { contacts: { createdSince: "2026-01-01T00:00:00Z" } } });
    t.is(misplaced.status, 400);
    t.regex(misplaced.body.error, /createdSince does not apply to a contacts resource/);
    const badType = await start({ resourceIds: "contacts" });
    t.is(badType.status, 422);
    let current = await getRun(s, run.id);
    t.is(current.status, "awaiting_approval", "refused starts change nothing");
    t.deepEqual(current.approvedPlan.resourceIds, []);
    t.is(await queuedSteps(s), 0);

    // awaiting_approval + start with resourceIds -> queued, the selection approved first.
    t.deepEqual((await start({ resourceIds: ["contacts", "contacts"] })).body.data, { id: run.id, status: "queued" });
    current = await getRun(s, run.id);
    t.deepEqual(current.approvedPlan.resourceIds, ["contacts"]);
    t.truthy(current.approvedPlan.approvedAt);
    t.is(await queuedSteps(s), 1);

    // queued + start -> unchanged: the current state, no new execution, plan unchanged.
    const again = await start({ resourceIds: ["contacts"], resourceOptions: { contacts: { statuses: ["unsubscribed"] } } });
    t.is(again.status, 200);
    t.deepEqual(again.body.data, { id: run.id, status: "queued" });
    t.deepEqual((await getRun(s, run.id)).approvedPlan, current.approvedPlan);
    t.is(await queuedSteps(s), 1);

    await runJobs(s);
    t.is((await getRun(s, run.id)).status, "completed");
    t.is(await subscriberCount(s), 3, "the second start did not filter or import again");

    // completed + start -> 400, with or without resourceIds.
    for (const body of [{}, { resourceIds: ["contacts"] }]) {
      const refused = await start(body);
      t.is(refused.status, 400);
      t.deepEqual(refused.body, { success: false, error: "Migration run cannot be started in its current state (completed)" });
    }

    // canceled + start -> 400.
    const other = await createRun(s, { provider: "csv", csv: CSV });
    t.deepEqual((await s.call("POST", `${MIGRATIONS}/${other.id}/cancel`)).body.data, { id: other.id, status: "canceled" });
    const afterCancel = await s.call("POST", `${MIGRATIONS}/${other.id}/start`, { body: { resourceIds: ["contacts"] } });
    t.is(afterCancel.status, 400);
    t.is(afterCancel.body.error, "Migration run cannot be started in its current state (canceled)");
    t.is(await queuedSteps(s), 0);
  });

  test(name("a plan approved at creation starts without a body; resourceOptions are honoured with resourceIds"), async (t) => {
    const s = await session(t, dialect);
    const run = await createRun(s, {
      provider: "csv",
      csv: CSV,
      resourceIds: ["contacts"],
      resourceOptions: { contacts: { statuses: ["active"], duplicateStrategy: "skip" } },
    });
    t.is(run.status, "awaiting_approval");
    t.deepEqual(run.approvedPlan.resourceIds, ["contacts"]);
    t.deepEqual(run.approvedPlan.resourceOptions, { contacts: { statuses: ["active"], duplicateStrategy: "skip" } });

    const started = await s.call("POST", `${MIGRATIONS}/${run.id}/start`);
    t.deepEqual(started.body, { success: true, data: { id: run.id, status: "queued" } });
    await runJobs(s);
    const done = await getRun(s, run.id);
    t.is(done.status, "completed");
    // Bob is unsubscribed in the file: filtered out; the invalid row (no status: active) still goes to the import and fails there.
    t.like(done.progress.resources[0], { processed: 4, queued: 3, skipped: 1, done: true });
    t.is(done.report.subscribersQueued, 3);
    const emails = (await s.knex("subscribers").where({ company_id: s.company.companyId }).orderBy("email").select("email")).map(
      (row: { email: string }) => row.email,
    );
    t.deepEqual(emails, ["ada@example.com", "dora@example.com"]);
  });

  test(name("a running run: start changes nothing, cancel is requested and the job stops between batches"), async (t) => {
    const s = await session(t, dialect);
    const run = await createRun(s, { provider: "csv", csv: bigCsv(1200) });
    t.is(run.discovery.resources[0].count, 1200);
    await s.call("POST", `${MIGRATIONS}/${run.id}/start`, { body: { resourceIds: ["contacts"] } });

    await runOneStep(s);
    let current = await getRun(s, run.id);
    t.is(current.status, "running");
    t.like(current.progress.resources[0], { processed: 500, queued: 500, done: false });
    t.is(current.report.subscribersQueued, 500);
    t.is(await queuedSteps(s), 1);

    // running + start -> unchanged, no new execution.
    const again = await s.call("POST", `${MIGRATIONS}/${run.id}/start`, { body: { resourceIds: ["contacts"] } });
    t.deepEqual(again.body, { success: true, data: { id: run.id, status: "running" } });
    t.is(await queuedSteps(s), 1);

    const cancel = await s.call("POST", `${MIGRATIONS}/${run.id}/cancel`);
    t.deepEqual(cancel.body, { success: true, data: { id: run.id, status: "cancel_requested" } });
    // cancel_requested + start -> 400; cancel again answers the state as it is.
    const start = await s.call("POST", `${MIGRATIONS}/${run.id}/start`);
    t.is(start.status, 400);
    t.is(start.body.error, "Migration run cannot be started in its current state (cancel_requested)");
    t.deepEqual((await s.call("POST", `${MIGRATIONS}/${run.id}/cancel`)).body.data, { id: run.id, status: "cancel_requested" });

    await runJobs(s);
    current = await getRun(s, run.id);
    t.is(current.status, "canceled");
    t.truthy(current.completedAt);
    t.is(current.report.subscribersQueued, 500, "no batch ran after the cancel was seen");
    t.is(await subscriberCount(s), 500, "contacts imported before the cancel stay");
    t.is(await queuedSteps(s), 0);
    t.deepEqual((await s.call("POST", `${MIGRATIONS}/${run.id}/cancel`)).body.data, { id: run.id, status: "canceled" });
  });

  test(name("cancel ends a run awaiting approval or queued at once; a completed run cannot be canceled"), async (t) => {
    const s = await session(t, dialect);
    const waiting = await createRun(s, { provider: "csv", csv: CSV });
    t.deepEqual((await s.call("POST", `${MIGRATIONS}/${waiting.id}/cancel`)).body, { success: true, data: { id: waiting.id, status: "canceled" } });

    const queued = await createRun(s, { provider: "csv", csv: CSV });
    await s.call("POST", `${MIGRATIONS}/${queued.id}/start`, { body: { resourceIds: ["contacts"] } });
    t.deepEqual((await s.call("POST", `${MIGRATIONS}/${queued.id}/cancel`)).body.data, { id: queued.id, status: "canceled" });
    await runJobs(s);
    const canceled = await getRun(s, queued.id);
    t.is(canceled.status, "canceled");
    t.is(canceled.startedAt, null, "the job found it canceled and did nothing");
    t.is(await subscriberCount(s), 0);

    const completed = await createRun(s, { provider: "csv", csv: CSV, resourceIds: ["contacts"] });
    await s.call("POST", `${MIGRATIONS}/${completed.id}/start`);
    await runJobs(s);
    const refused = await s.call("POST", `${MIGRATIONS}/${completed.id}/cancel`);
    t.is(refused.status, 400);
    t.deepEqual(refused.body, { success: false, error: "Migration run is already completed and cannot be canceled" });
    t.is((await getRun(s, completed.id)).status, "completed");
  });

  test(name("404 for unknown runs and other tenants' runs; 403 for a run of another company of the same user; scopes"), async (t) => {
    const s = await session(t, dialect);
    const run = await createRun(s, { provider: "csv", csv: CSV });
    for (const [method, path] of [
      ["GET", `${MIGRATIONS}/mig_missing`],
      ["POST", `${MIGRATIONS}/mig_missing/start`],
      ["POST", `${MIGRATIONS}/mig_missing/cancel`],
    ] as const) {
      const missing = await s.call(method, path, method === "POST" ? { body: { resourceIds: ["contacts"] } } : {});
      t.is(missing.status, 404);
      t.deepEqual(missing.body, { success: false, error: "Migration run not found" });
    }

    // Another tenant never learns the run exists.
    const other = await createCompanyFixture(s.api.runtime.container);
    for (const [method, path] of [
      ["GET", `${MIGRATIONS}/${run.id}`],
      ["POST", `${MIGRATIONS}/${run.id}/start`],
      ["POST", `${MIGRATIONS}/${run.id}/cancel`],
    ] as const) {
      const hidden = await s.api.call(method, path, { key: other.ownerKey, ...(method === "POST" ? { body: { resourceIds: ["contacts"] } } : {}) });
      t.is(hidden.status, 404);
      t.is(hidden.body.error, "Migration run not found");
    }
    t.is((await getRun(s, run.id)).status, "awaiting_approval", "the other tenant changed nothing");

    // The same person, acting for another company of theirs: 403, and 200 once that company is selected.
    const shared = await createMemberKeyFixture(s.api.runtime.container, other.companyId, { role: "admin", email: s.company.ownerEmail });
    const denied = await s.api.call("GET", `${MIGRATIONS}/${run.id}`, { key: shared.key });
    t.is(denied.status, 403);
    t.deepEqual(denied.body, { success: false, error: "Access denied to the migration run" });
    const deniedStart = await s.api.call("POST", `${MIGRATIONS}/${run.id}/start`, { key: shared.key, body: { resourceIds: ["contacts"] } });
    t.is(deniedStart.status, 403);
    const selected = await s.api.call("GET", `${MIGRATIONS}/${run.id}`, { key: shared.key, companyId: s.company.companyId });
    t.is(selected.status, 200);
    t.is(selected.body.data.id, run.id);

    // Scopes: migrations:read to read, migrations:write to create, start and cancel.
    const reader = await createMemberKeyFixture(s.api.runtime.container, s.company.companyId, {
      role: "owner",
      email: s.company.ownerEmail,
      scopes: ["migrations:read"],
    });
    t.is((await s.api.call("GET", `${MIGRATIONS}/${run.id}`, { key: reader.key })).status, 200);
    for (const [path, body] of [
      [MIGRATIONS, { provider: "csv", csv: CSV }],
      [`${MIGRATIONS}/${run.id}/start`, { resourceIds: ["contacts"] }],
      [`${MIGRATIONS}/${run.id}/cancel`, undefined],
    ] as const) {
      const refused = await s.api.call("POST", path, { key: reader.key, body });
      t.is(refused.status, 403);
      t.deepEqual(refused.body, { success: false, error: "API key is missing required scope: migrations:write" });
    }
    const writer = await createMemberKeyFixture(s.api.runtime.container, s.company.companyId, {
      role: "owner",
      email: s.company.ownerEmail,
      scopes: ["migrations:write"],
    });
    const unreadable = await s.api.call("GET", `${MIGRATIONS}/${run.id}`, { key: writer.key });
    t.is(unreadable.status, 403);
    t.is(unreadable.body.error, "API key is missing required scope: migrations:read");
    t.is((await getRun(s, run.id)).status, "awaiting_approval");
    t.is(await s.api.call("GET", `${MIGRATIONS}/${run.id}`).then((r) => r.status), 401);
  });

  test(name("create: provider and its fields are checked, a CSV must have an email column, nothing is saved on refusal"), async (t) => {
    const s = await session(t, dialect);
    const cases: ReadonlyArray<readonly [unknown, number, RegExp]> = [
      [{ provider: "hubspot", csv: CSV }, 422, /provider must be one of: csv, mailchimp/],
      [{ csv: CSV }, 422, /provider is required/],
      [{ provider: "csv" }, 422, /csv is required for provider csv/],
      [{ provider: "csv", csv: "   " }, 422, /csv must not be blank/],
      [{ provider: "mailchimp" }, 422, /apiKey is required for provider mailchimp/],
      [{ provider: "csv", csv: "name,plan\nAda,pro" }, 400, /The CSV needs a header row with an email column \(found: name, plan\)/],
      [{ provider: "csv", csv: 'email,name\n"ada@example.com,Ada' }, 400, /The CSV could not be read/],
      [{ provider: "csv", csv: CSV, resourceIds: ["audience:x"] }, 400, /Unknown resource in resourceIds: audience:x/],
    ];
    for (const [body, status, message] of cases) {
      const refused = await s.call("POST", MIGRATIONS, { body });
      t.is(refused.status, status, JSON.stringify(body));
      t.false(refused.body.success);
      t.regex(refused.body.error, message);
    }
    const malformed = await s.call("POST", MIGRATIONS, { rawBody: "{not json" });
    t.is(malformed.status, 400);
    const row = await s.knex("migration_runs").count("* as n").first();
    t.is(Number(row?.n), 0);
  });

  test(
    name("mailchimp: audiences, campaigns and templates discovered, imported page by page; the key is never returned nor stored in plain text"),
    async (t) => {
      const s = await session(t, dialect);
      const account = mailchimpAccount();
      const [newsletter] = account.audiences;
      const discovery = interceptDiscovery(account);
      const created = await s.call("POST", MIGRATIONS, { body: { provider: "mailchimp", apiKey: account.apiKey } });
      t.is(created.status, 200, JSON.stringify(created.body));
      t.true(discovery.isDone());
      const run = created.body.data;
      t.is(run.status, "awaiting_approval");
      t.deepEqual(run.discovery, {
        provider: "mailchimp",
        resources: [
          { id: NEWSLETTER, type: "audience", count: 502, name: "Newsletter" },
          { id: "audience:f6e5d4c3b2", type: "audience", count: 2, name: "Beta testers" },
          { id: "campaigns", type: "campaign", count: 12, name: "Campaigns" },
          { id: "templates", type: "template", count: 2, name: "Saved templates" },
        ],
      });

      // Only what is selected is read: the second audience's members are never requested.
      const reads = [interceptMembers(account, newsletter!, 500), interceptCampaigns(account, 10), interceptTemplates(account, 10)];
      const started = await s.call("POST", `${MIGRATIONS}/${run.id}/start`, { body: { resourceIds: [NEWSLETTER, "campaigns", "templates"] } });
      t.deepEqual(started.body, { success: true, data: { id: run.id, status: "queued" } });
      await runJobs(s);
      for (const scope of reads) t.true(scope.isDone(), `pending: ${scope.pendingMocks().join(", ")}`);

      const done = await getRun(s, run.id);
      t.is(done.status, "completed");
      t.deepEqual(done.report, {
        subscribersQueued: 502,
        draftCampaignsCreated: 12,
        draftSequencesCreated: 0,
        draftTransactionalEmailsCreated: 0,
        templatesCreated: 1,
      });
      t.like(done.progress.resources[0], { id: NEWSLETTER, type: "audience", total: 502, processed: 503, queued: 502, skipped: 1, done: true });
      t.like(done.progress.resources[1], { id: "campaigns", type: "campaign", total: 12, processed: 12, created: 12, skipped: 0, done: true });
      t.like(done.progress.resources[2], { id: "templates", type: "template", total: 2, processed: 2, created: 1, skipped: 1, done: true });
      t.is(done.errors.length, 1);
      t.like(done.errors[0], { resourceId: "templates", message: "Template 'Empty layout' (10002) was not imported: the source returned no content for it" });

      // Contacts: statuses mapped (cleaned -> bounced), pending ones left out, merge fields and tags kept.
      t.is(await subscriberCount(s), 502);
      const grace = (await s.call("GET", "/api/v1/subscribers/grace%40example.com")).body.subscriber;
      t.like(grace, { email: "grace@example.com", firstName: "Grace", lastName: "Hopper", status: "active", createdAt: "2024-04-01T10:00:00.000Z" });
      t.deepEqual([...grace.tags].sort(), ["customer", "vip-list"]);
      t.deepEqual(grace.customAttributes, {
        address: { addr1: "1 Navy Way", addr2: "", city: "Arlington", state: "VA", zip: "22202", country: "US" },
        phone: "+1 555 0100",
        birthday: "12/09",
        company: "US Navy",
      });
      t.is((await s.call("GET", "/api/v1/subscribers/una%40example.com")).body.subscriber.status, "unsubscribed");
      t.is((await s.call("GET", "/api/v1/subscribers/gone%40example.com")).body.subscriber.status, "bounced");
      t.is((await s.call("GET", "/api/v1/subscribers/pending%40example.com")).status, 404);
      t.is((await s.call("GET", "/api/v1/subscribers/beta1%40example.com")).status, 404);
      const inList = await s.call("GET", "/api/v1/subscribers?listName=Newsletter&status=all&limit=1");
      t.is(inList.body.pagination.total, 502, "the audience's contacts joined a list of its name");

      // Campaigns became drafts, content included (a plain-text campaign has no HTML).
      const drafts = await s.knex("campaigns").where({ company_id: s.company.companyId }).orderBy("external_id");
      t.is(drafts.length, 12);
      t.like(drafts[0], {
        name: "Newsletter #1",
        subject: "What is new in month 1",
        preview_text: "Our picks for month 1",
        status: "draft",
        source: "mailchimp",
        external_id: "c009e57a1",
      });
      t.regex(drafts[0].html, /<h1>Month 1<\/h1>/);
      t.is(drafts[5].html, null);

      // Templates: the one with content, labelled with the provider.
      const templates = await s.call("GET", "/api/v1/templates?label=mailchimp");
      t.is(templates.body.templates.length, 1);
      t.like(templates.body.templates[0], { name: "Monthly newsletter", subject: "Monthly newsletter", labels: ["mailchimp"] });
      t.is(
        templates.body.templates[0].html,
        '<div data-mc-edit="header"><h1>Acme news</h1></div>\n<div data-mc-edit="body"><p>*|FNAME|*, here is what is new.</p></div>',
      );

      // The key: in no response, and in no column of any table in plain text (nor as the basic-auth header).
      const basic = Buffer.from(`lifecycle:${account.apiKey}`).toString("base64");
      for (const body of [created.body, started.body, done]) t.false(JSON.stringify(body).includes(account.apiKey.slice(0, 32)));
      const stored = await everyStoredRow(s.knex, dialect);
      t.true(stored.includes(run.id), "the dump holds the run");
      t.false(stored.includes(account.apiKey.slice(0, 32)));
      t.false(stored.includes(basic));
    },
  );

  test(name("mailchimp: a key Mailchimp refuses (401) is a clear 400 at creation and nothing is saved"), async (t) => {
    const s = await session(t, dialect);
    const account = mailchimpAccount();
    const refused = nock(hostOf(account.dataCenter)).get("/3.0/lists").query(true).reply(401, API_KEY_INVALID, { "content-type": "application/problem+json" });
    const created = await s.call("POST", MIGRATIONS, { body: { provider: "mailchimp", apiKey: account.apiKey } });
    t.true(refused.isDone());
    t.is(created.status, 400);
    t.deepEqual(created.body, {
      success: false,
      error: "Mailchimp refused the API key (HTTP 401: API Key Invalid - Your API key may be invalid, or you've attempted to access the wrong datacenter.)",
      code: "invalid_credentials",
    });
    const noDataCenter = await s.call("POST", MIGRATIONS, { body: { provider: "mailchimp", apiKey: "8f14e45fceea167a5a36dedd4bea2543" } });
    t.is(noDataCenter.status, 400);
    t.is(noDataCenter.body.code, "invalid_credentials");
    t.regex(noDataCenter.body.error, /must end with its data center, such as -us21/);
    const unavailable = nock(hostOf(account.dataCenter))
      .get("/3.0/lists")
      .query(true)
      .reply(503, problem(503, "Service Unavailable", "Please try again later."));
    const down = await s.call("POST", MIGRATIONS, { body: { provider: "mailchimp", apiKey: account.apiKey } });
    t.true(unavailable.isDone());
    t.is(down.status, 400);
    t.is(down.body.code, "connection_failed");
    t.regex(down.body.error, /Mailchimp answered HTTP 503 for \/lists: Service Unavailable/);
    t.is(Number((await s.knex("migration_runs").count("* as n").first())?.n), 0);
    t.false((await everyStoredRow(s.knex, dialect)).includes(account.apiKey.slice(0, 32)));
  });

  test(name("mailchimp: errors while running are retried; a key revoked meanwhile fails the run, which then cannot start or cancel"), async (t) => {
    const s = await session(t, dialect);
    const account = mailchimpAccount();
    interceptDiscovery(account);
    const run = await createRun(s, { provider: "mailchimp", apiKey: account.apiKey, resourceIds: [NEWSLETTER, "campaigns"] });
    const host = hostOf(account.dataCenter);
    // The first members request meets a 500: the step is retried later and goes on.
    const flaky = nock(host)
      .get("/3.0/lists/a1b2c3d4e5/members")
      .query(true)
      .reply(500, problem(500, "Internal Server Error", "An unexpected internal error has occurred."));
    interceptMembers(account, account.audiences[0]!, 500);
    await s.call("POST", `${MIGRATIONS}/${run.id}/start`);
    await runJobs(s);
    t.true(flaky.isDone());
    t.is((await getRun(s, run.id)).status, "running", "the failed step waits for its retry");
    s.api.clock.advance(60_000);
    await runJobs(s);
    let current = await getRun(s, run.id);
    t.like(current.progress.resources[0], { processed: 503, done: true });

    // Then the key is revoked: the campaigns request is refused and the run fails at once.
    nock(host).get("/3.0/campaigns").query(true).reply(401, API_KEY_INVALID);
    s.api.clock.advance(60_000);
    await runJobs(s);
    current = await getRun(s, run.id);
    t.is(current.status, "failed");
    t.truthy(current.completedAt);
    t.is(current.report.subscribersQueued, 502, "what was imported before stays");
    t.like(current.errors.at(-1), {
      resourceId: null,
      message: "Mailchimp refused the API key (HTTP 401: API Key Invalid - Your API key may be invalid, or you've attempted to access the wrong datacenter.)",
    });
    const start = await s.call("POST", `${MIGRATIONS}/${run.id}/start`, { body: { resourceIds: ["campaigns"] } });
    t.is(start.status, 400);
    t.is(start.body.error, "Migration run cannot be started in its current state (failed)");
    const cancel = await s.call("POST", `${MIGRATIONS}/${run.id}/cancel`);
    t.is(cancel.status, 400);
    t.is(cancel.body.error, "Migration run is already failed and cannot be canceled");
    t.is(await queuedSteps(s), 0);
  });

  test(name("mailchimp: baseUrl is refused unless private destinations are allowed"), async (t) => {
    const s = await session(t, dialect);
    const account = mailchimpAccount();
    const refused = await s.call("POST", MIGRATIONS, { body: { provider: "mailchimp", apiKey: account.apiKey, baseUrl: "https://mailchimp-double.test/3.0" } });
    t.is(refused.status, 400);
    t.regex(refused.body.error, /baseUrl is accepted only when the server allows private destinations \(ALLOW_PRIVATE_DESTINATIONS=true/);
    const notUrl = await s.call("POST", MIGRATIONS, { body: { provider: "mailchimp", apiKey: account.apiKey, baseUrl: "ftp://example.com" } });
    t.is(notUrl.status, 422);

    const local = await session(t, dialect, { allowPrivateDestinations: true });
    const double = interceptDiscovery(account, "https://mailchimp-double.test", "/api/3.0");
    const created = await local.call("POST", MIGRATIONS, {
      body: { provider: "mailchimp", apiKey: account.apiKey, baseUrl: "https://mailchimp-double.test/api/3.0/" },
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    t.true(double.isDone());
    t.is(created.body.data.discovery.resources.length, 4);
  });
}
