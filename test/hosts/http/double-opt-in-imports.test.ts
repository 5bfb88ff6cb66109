import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test, { type ExecutionContext } from "ava";
import knexFactory from "knex";
import { SetUpOperatorSender } from "../../../core/company/set-up-operator-sender.js";
import type { Knex } from "knex";
import { DeliverEmail } from "../../../core/delivery/deliver-email.js";
import { ASK_IMPORTED_CONTACTS_JOB } from "../../../core/opt-in/ask-imported-contacts.js";
import { AdvanceImport } from "../../../core/subscriber-imports/advance-import.js";
import { OPERATOR } from "../../../core/shared/actor.js";
import { createCompanyFixture } from "../../../fixtures/companies.js";
import { importCsvFile } from "../../../hosts/cli/import-subscribers.js";
import { createWorker } from "../../../hosts/worker/create-worker.js";
import { apiFixture } from "../../helpers/api-fixture.js";
import { dialects, type Dialect } from "../../helpers/databases.js";
import { failInsertsInto } from "../../helpers/injected-failure.js";

const CONFIRM_SUBJECT = "Confirm your subscription to Acme";

const countOf = async (query: Knex.QueryBuilder): Promise<number> => Number((await query.count({ n: "*" }).first())!.n);

/** The app, a company that can send, and a worker run by hand. */
async function setup(t: ExecutionContext, dialect: Dialect) {
  // A SQLite file warehouse is a private destination.
  const api = await apiFixture(t, dialect, { allowPrivateDestinations: true });
  const { container, knex } = api.runtime;
  const a = await createCompanyFixture(container, { name: "Acme" });
  const sender = await container.get(SetUpOperatorSender).execute(OPERATOR, a.companyId, "hello@acme.example");
  if (sender._tag === "Left") throw new Error(sender.left.message);
  const worker = createWorker(container, { concurrency: 1 }, { push: false });
  const call = (method: string, path: string, body?: unknown) => api.call(method, `/api/v1${path}`, { key: a.ownerKey, body });
  /** Imports the contacts through the API and runs the import's jobs to the end. */
  const importContacts = async (subscribers: unknown[], optInMode?: string) => {
    const created = await call("POST", "/subscribers/imports", { subscribers, ...(optInMode ? { optInMode } : {}) });
    t.is(created.status, 202, JSON.stringify(created.body));
    await worker.runDue();
    const done = await call("GET", `/subscribers/imports/${created.body.import.id}`);
    t.is(done.body.import.status, "completed");
    return done.body.import;
  };
  /** The confirmation emails queued so far, by recipient. */
  const confirmations = async (): Promise<string[]> =>
    (await knex("email_sends").where({ subject: CONFIRM_SUBJECT }).orderBy("recipient_email").pluck("recipient_email")) as string[];
  /** Delivers every pending send, as the worker would; returns their statuses by recipient. */
  const deliver = async () => {
    const pending: Array<{ id: string; recipient_email: string }> = await knex("email_sends").where({ status: "pending" }).orderBy("id");
    const deliverEmail = container.get(DeliverEmail);
    return Promise.all(pending.map(async (send) => [send.recipient_email, await deliverEmail.execute(a.companyId, send.id)] as [string, string | null]));
  };
  return { api, a, knex, container, worker, call, importContacts, confirmations, deliver };
}

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: double opt-in of imports: ${title}`;

  test(name("a double_opt_in import asks the active contacts it created, once each, and marketing to them waits for the confirmation"), async (t) => {
    const s = await setup(t, dialect);
    t.is((await s.call("POST", "/subscribers", { email: "old@example.com", optInMode: "confirmed" })).status, 200);

    const done = await s.importContacts(
      [
        { email: "ann@example.com" },
        { email: "bob@example.com" },
        { email: "cat@example.com" },
        { email: "old@example.com", firstName: "Old" },
        { email: "gone@example.com", status: "unsubscribed" },
      ],
      "double_opt_in",
    );
    t.like(done, { addedCount: 4, skippedCount: 1 });
    t.false("optIn" in done, "the import's shape is the compat one");
    t.deepEqual(await s.confirmations(), ["ann@example.com", "bob@example.com", "cat@example.com"]);

    // Marketing to an imported contact is suppressed until it confirms; the existing contact gets it.
    for (const to of ["ann@example.com", "old@example.com"]) {
      t.is((await s.call("POST", "/transactional/send", { to, subject: "News", body: "<p>News</p>", emailType: "marketing" })).status, 200);
    }
    const statuses = new Map(await s.deliver());
    t.is(statuses.get("ann@example.com"), "suppressed");
    t.is(statuses.get("old@example.com"), "sent");
    t.is((await s.knex("email_sends").where({ recipient_email: "ann@example.com", subject: "News" }).first()).suppression_reason, "unconfirmed");
  });

  test(name("a `confirmed` import asks no one, even when the company turned double opt-in on"), async (t) => {
    const s = await setup(t, dialect);
    t.is((await s.call("PATCH", "/tracking-settings", { doubleOptInEnabled: true })).status, 200);
    const done = await s.importContacts([{ email: "ann@example.com" }, { email: "bob@example.com" }], "confirmed");
    t.is(done.addedCount, 2);
    t.deepEqual(await s.confirmations(), []);
    t.is(
      await s
        .knex("opt_ins")
        .count({ n: "*" })
        .first()
        .then((row) => Number(row!.n)),
      0,
    );
  });

  test(name("a `default` import follows the company's setting"), async (t) => {
    const s = await setup(t, dialect);
    await s.importContacts([{ email: "ann@example.com" }], "default");
    await s.importContacts([{ email: "bob@example.com" }]);
    t.deepEqual(await s.confirmations(), [], "double opt-in is off: nobody is asked");

    t.is((await s.call("PATCH", "/tracking-settings", { doubleOptInEnabled: true })).status, 200);
    await s.importContacts([{ email: "cat@example.com" }, { email: "ann@example.com" }], "default");
    await s.importContacts([{ email: "dan@example.com" }]);
    t.deepEqual(await s.confirmations(), ["cat@example.com", "dan@example.com"], "only the contacts the imports created are asked");
  });

  test(name("a warehouse sync with optInMode double_opt_in asks the contacts it created"), async (t) => {
    const s = await setup(t, dialect);
    t.is((await s.call("POST", "/subscribers", { email: "old@example.com", optInMode: "confirmed" })).status, 200);
    const dir = mkdtempSync(join(tmpdir(), "warehouse-"));
    const path = join(dir, "crm.sqlite");
    const file = knexFactory({ client: "better-sqlite3", connection: { filename: path }, useNullAsDefault: true });
    t.teardown(async () => {
      await file.destroy();
      rmSync(dir, { recursive: true, force: true });
    });
    await file.schema.createTable("people", (table) => {
      table.integer("id").primary();
      table.text("mail");
    });
    await file("people").insert([
      { id: 1, mail: "ann@example.com" },
      { id: 2, mail: "bob@example.com" },
      { id: 3, mail: "old@example.com" },
    ]);
    const connected = await s.call("POST", "/warehouse-connections", { name: "File", kind: "sqlite", url: `sqlite:${path}` });
    t.is(connected.status, 200, JSON.stringify(connected.body));
    const created = await s.call("POST", "/warehouse-syncs", {
      connectionId: connected.body.connection.id,
      name: "People",
      query: "select * from people",
      mapping: { emailColumn: "mail" },
      optInMode: "double_opt_in",
    });
    t.is(created.status, 200, JSON.stringify(created.body));
    t.is((await s.call("POST", `/warehouse-syncs/${created.body.sync.id}/run`, {})).status, 202);
    await s.worker.runDue();
    t.like((await s.call("GET", `/warehouse-syncs/${created.body.sync.id}`)).body.sync, { latestRun: { status: "succeeded", rowsRead: 3 } });
    t.deepEqual(await s.confirmations(), ["ann@example.com", "bob@example.com"]);
  });

  test(name("the CLI's import-subscribers asks the contacts it created with --opt-in-mode double_opt_in"), async (t) => {
    const s = await setup(t, dialect);
    t.is((await s.call("POST", "/subscribers", { email: "old@example.com", optInMode: "confirmed" })).status, 200);
    const dir = mkdtempSync(join(tmpdir(), "optin-csv-"));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "contacts.csv");
    writeFileSync(file, "email,status\nann@example.com,active\nold@example.com,active\nbob@example.com,active\ngone@example.com,unsubscribed\n");
    const done = await importCsvFile(s.container, { companyId: s.a.companyId, file, duplicateStrategy: "skip", lists: [], optInMode: "double_opt_in" });
    t.like(done, { status: "completed", addedCount: 3, skippedCount: 1 });
    t.deepEqual(await s.confirmations(), [], "the CLI queues the confirmation emails for the worker");
    t.is(await countOf(s.knex("opt_ins").whereNull("confirmed_at")), 2, "but the contacts are unconfirmed from the moment they are stored");
    await s.worker.runDue();
    t.deepEqual(await s.confirmations(), ["ann@example.com", "bob@example.com"]);
  });

  for (const table of ["opt_ins", "jobs"] as const) {
    test(
      name(`a chunk whose transaction fails at its ${table} insert stores no contact and no opt-in; once it commits, both are there before any email`),
      async (t) => {
        const s = await setup(t, dialect);
        const created = await s.call("POST", "/subscribers/imports", {
          subscribers: [{ email: "ann@example.com" }, { email: "bob@example.com" }],
          optInMode: "double_opt_in",
        });
        t.is(created.status, 202, JSON.stringify(created.body));
        const importId: string = created.body.import.id;
        const advance = s.container.get(AdvanceImport);

        const restore = await failInsertsInto(s.knex, table);
        await t.throwsAsync(advance.execute(s.a.companyId, importId), { any: true, message: /injected failure/ });
        t.is(await countOf(s.knex("subscribers").whereIn("email", ["ann@example.com", "bob@example.com"])), 0, "neither contacts");
        t.is(await countOf(s.knex("opt_ins")), 0, "nor opt-ins");
        t.is(await countOf(s.knex("jobs").where({ type: ASK_IMPORTED_CONTACTS_JOB })), 0, "nor the job that emails them");
        t.like((await s.call("GET", `/subscribers/imports/${importId}`)).body.import, { status: "queued", processedCount: 0, addedCount: 0 });
        await restore();

        // The step commits; the process stops before any job runs (a crash right after the commit).
        t.like(await advance.execute(s.a.companyId, importId), { status: "completed", addedCount: 2 });
        t.is(await countOf(s.knex("opt_ins").whereNull("confirmed_at").whereNull("last_email_at")), 2, "both contacts are unconfirmed, not yet emailed");
        t.is(await countOf(s.knex("jobs").where({ type: ASK_IMPORTED_CONTACTS_JOB, status: "queued" })), 1, "and the job that emails them is queued");
        t.deepEqual(await s.confirmations(), []);
        t.is(
          (await s.call("POST", "/transactional/send", { to: "ann@example.com", subject: "News", body: "<p>News</p>", emailType: "marketing" })).status,
          200,
        );
        t.deepEqual(await s.deliver(), [["ann@example.com", "suppressed"]], "marketing already waits for the confirmation");

        // Any worker, later, sends each confirmation once, however often the job runs.
        await s.worker.runDue();
        t.deepEqual(await s.confirmations(), ["ann@example.com", "bob@example.com"]);
        await s.knex("jobs").where({ type: ASK_IMPORTED_CONTACTS_JOB }).update({ status: "queued", attempts: 0 });
        await s.worker.runDue();
        t.deepEqual(await s.confirmations(), ["ann@example.com", "bob@example.com"], "a job run again emails no one twice");
      },
    );
  }

  test(name("a CLI chunk that cannot store its opt-ins stores none of its contacts"), async (t) => {
    const s = await setup(t, dialect);
    const dir = mkdtempSync(join(tmpdir(), "optin-csv-"));
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, "contacts.csv");
    writeFileSync(file, "email\nann@example.com\nbob@example.com\n");
    const restore = await failInsertsInto(s.knex, "opt_ins");
    const done = await importCsvFile(s.container, { companyId: s.a.companyId, file, duplicateStrategy: "skip", lists: [], optInMode: "double_opt_in" });
    await restore();
    t.like(done, { addedCount: 0, failedCount: 2 });
    t.is(await countOf(s.knex("subscribers").whereIn("email", ["ann@example.com", "bob@example.com"])), 0);
    t.is(await countOf(s.knex("opt_ins")), 0);
    await s.worker.runDue();
    t.deepEqual(await s.confirmations(), []);
  });
}
