import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import test, { type ExecutionContext } from "ava";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { SaveContact } from "../../core/subscribers/save-contact.js";
import { contactEmail, writeContactsCsv } from "../../fixtures/contacts-csv.js";
import { createCompanyFixture } from "../../fixtures/companies.js";
import type { Runtime } from "../../hosts/runtime.js";
import { runCli } from "../helpers/cli.js";
import { dialects, type Dialect, type TestDatabase } from "../helpers/databases.js";
import { startTestRuntime } from "../helpers/runtime.js";

const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

function workdir(t: ExecutionContext): string {
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-import-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A fresh database with a company, prepared in-process; the runtime stays open to check what the CLI wrote. */
async function prepare(t: ExecutionContext, dialect: Dialect): Promise<{ database: TestDatabase; runtime: Runtime; companyId: string }> {
  const database = await dialect.create();
  const runtime = await startTestRuntime(database);
  t.teardown(async () => {
    await runtime.close();
    await database.drop();
  });
  const company = await createCompanyFixture(runtime.container, { name: "Importers" });
  return { database, runtime, companyId: company.companyId };
}

async function saveContact(runtime: Runtime, companyId: string, email: string, firstName: string): Promise<void> {
  const saved = await runtime.container.get(SaveContact).execute(companyId, { email, firstName, tags: ["existing"] }, "skip");
  if (saved._tag === "Left") throw new Error(saved.left.message);
}

const countOf = async (query: Promise<unknown>) => Number(((await query) as { n: unknown }).n);

test("sqlite: import-subscribers streams a 100,000-row CSV into the company, skipping repeated and existing contacts", async (t) => {
  t.timeout(6 * 60_000); // 100,000 rows through a child process: minutes on a machine busy with other test files
  const [sqlite] = dialects();
  const cwd = workdir(t);
  const { database, runtime, companyId } = await prepare(t, sqlite!);
  const { knex } = runtime;
  const file = join(cwd, "contacts.csv");
  const csv = await writeContactsCsv(file, { rows: 100_000, invalidEvery: 97, duplicateEvery: 89 });
  // Contacts 1 to 40 exist already: with the default strategy (skip) they are left alone.
  for (let i = 1; i <= 40; i++) await saveContact(runtime, companyId, contactEmail(i), "Existing");
  const [listId] = (await runtime.container.get<SubscriberRepository>(SubscriberRepository).resolveLists(companyId, ["Imported"], new Date())).ids;

  const started = Date.now();
  const run = await runCli(["import-subscribers", "--company", companyId, "--list", listId!, "--json", file], { cwd, env: database.env });
  t.is(run.code, 0, run.stderr);
  t.log(`100,000 rows imported through the CLI in ${Date.now() - started} ms`);
  t.is(run.stdout.trim().split("\n").length, 1, "one JSON object and nothing else");
  const result = JSON.parse(run.stdout);
  t.regex(result.id, /^imp_/);
  t.like(result, {
    status: "completed",
    fileName: "contacts.csv",
    duplicateStrategy: "skip",
    listIds: [listId],
    totalRows: 100_000,
    emailCount: 100_000 - csv.invalid,
    duplicateRows: csv.duplicates,
    processedCount: 100_000,
    addedCount: csv.contacts - 40,
    updatedCount: 0,
    skippedCount: csv.duplicates + 40,
    failedCount: csv.invalid,
    chunkCount: 200,
    processedChunks: 200,
    failedChunks: 0,
    error: null,
  });
  t.deepEqual(result.skippedReasons, { duplicate_email: csv.duplicates, already_exists: 40 });
  t.deepEqual(result.failedReasons, { invalid_email: csv.invalid });

  t.is(await countOf(knex("subscribers").where({ company_id: companyId }).count("* as n").first()), csv.contacts);
  t.is(await countOf(knex("list_memberships").where({ list_id: listId }).count("* as n").first()), csv.contacts - 40);
  const first = await knex("subscribers")
    .where({ company_id: companyId, email: contactEmail(0) })
    .first();
  t.like(first, { first_name: "Ada", last_name: "Lovelace", external_id: "ext-0", status: "active" });
  t.deepEqual(json(first.custom_attributes), { plan: "free", seats: 0, ltv: 0.5, vip: true, zip: "00000" }, "numbers and booleans keep their JSON types");
  const tags = await knex("subscriber_tags")
    .join("tags", "tags.id", "subscriber_tags.tag_id")
    .where("subscriber_tags.subscriber_id", first.id)
    .orderBy("tags.name")
    .pluck("tags.name");
  t.deepEqual(tags, ["customer", "newsletter"]);
  const odd = await knex("subscribers")
    .where({ company_id: companyId, email: contactEmail(99_999) })
    .first();
  t.like(odd, { external_id: null, first_name: "Ken" });
  t.deepEqual(json(odd.custom_attributes), { plan: "enterprise", seats: 49, ltv: 999.5, vip: false, zip: "09999" });
  const existing = await knex("subscribers")
    .where({ company_id: companyId, email: contactEmail(7) })
    .first();
  t.is(existing.first_name, "Existing");
  const stored = await knex("subscriber_imports").where({ id: result.id }).first();
  t.like(stored, { status: "completed", company_id: companyId });
});

for (const dialect of dialects()) {
  const name = (title: string) => `${dialect.name}: import-subscribers ${title}`;

  test(name("merges into existing contacts and prints a one-line summary"), async (t) => {
    const cwd = workdir(t);
    const { database, runtime, companyId } = await prepare(t, dialect);
    await saveContact(runtime, companyId, "grace@example.com", "Grace");
    const file = join(cwd, "people.csv");
    writeFileSync(
      file,
      [
        "Email,First Name,lastName,External_ID,Tags,Plan,Seats,Beta,account",
        "grace@example.com,,Hopper,crm-1,VIP;Navy,pro,12,TRUE,",
        "alan@example.com,Alan,Turing,,,free,007,false,",
        "bad-address,Nobody,,,,,,,",
        "edsger@example.com,Edsger,,,,,,,acme",
        "GRACE@example.com,Again,,,,,,,",
        "",
      ].join("\n"),
    );
    const run = await runCli(["import-subscribers", "--company", companyId, "--duplicate-strategy", "merge", file], { cwd, env: database.env });
    t.is(run.code, 0, run.stderr);
    t.regex(run.stdout, /^imported 5 of 5 rows from people\.csv: 1 added, 1 updated, 1 skipped, 2 failed \(imp_\w+ completed\)\n$/);

    const { knex } = runtime;
    const grace = await knex("subscribers").where({ company_id: companyId, email: "grace@example.com" }).first();
    t.like(grace, { first_name: "Grace", last_name: "Hopper", external_id: "crm-1" });
    t.deepEqual(json(grace.custom_attributes), { Plan: "pro", Seats: 12, Beta: true });
    const tags = await knex("subscriber_tags")
      .join("tags", "tags.id", "subscriber_tags.tag_id")
      .where("subscriber_tags.subscriber_id", grace.id)
      .orderBy("tags.name")
      .pluck("tags.name");
    t.deepEqual(tags, ["existing", "navy", "vip"]);
    const alan = await knex("subscribers").where({ company_id: companyId, email: "alan@example.com" }).first();
    t.deepEqual(json(alan.custom_attributes), { Plan: "free", Seats: "007", Beta: false }, "a number with a leading zero stays text");
    const stored = await knex("subscriber_imports").where({ company_id: companyId }).first();
    t.deepEqual(json(stored.failed_reasons), { invalid_email: 1, reserved_attribute: 1 });
    t.deepEqual(json(stored.skipped_reasons), { duplicate_email: 1 });
  });

  test(name("reports mistakes on one line of stderr with a non-zero exit"), async (t) => {
    const cwd = workdir(t);
    const { database, runtime, companyId } = await prepare(t, dialect);
    const env = database.env;
    const file = join(cwd, "ok.csv");
    writeFileSync(file, "email\nada@example.com\n");

    const unknown = await runCli(["import-subscribers", "--company", "co_01HZZZZZZZZZZZZZZZZZZZZZZZ", file], { cwd, env });
    t.is(unknown.code, 1);
    t.is(unknown.stderr, "error: Company not found: co_01HZZZZZZZZZZZZZZZZZZZZZZZ\n");
    t.is(unknown.stdout, "");

    const missing = await runCli(["import-subscribers", "--company", companyId, join(cwd, "nope.csv")], { cwd, env });
    t.is(missing.code, 1);
    t.regex(missing.stderr, /^error: cannot read .*nope\.csv: ENOENT[^\n]*\n$/);

    const strategy = await runCli(["import-subscribers", "--company", companyId, "--duplicate-strategy", "replace", file], { cwd, env });
    t.is(strategy.code, 1);
    t.is(strategy.stderr, "error: --duplicate-strategy must be one of: skip, merge, overwrite (got replace)\n");

    const list = await runCli(["import-subscribers", "--company", companyId, "--list", "list_01HZZZZZZZZZZZZZZZZZZZZZZZ", file], { cwd, env });
    t.is(list.code, 1);
    t.is(list.stderr, "error: List not found: list_01HZZZZZZZZZZZZZZZZZZZZZZZ\n");

    // A broken line after the first chunk: what was read is imported, the import fails.
    const broken = join(cwd, "broken.csv");
    const lines = ["email"];
    for (let i = 0; i < 600; i++) lines.push(`user${i}@example.com`);
    lines.push('"unterminated@example.com');
    writeFileSync(broken, `${lines.join("\n")}\n`);
    const failed = await runCli(["import-subscribers", "--company", companyId, broken], { cwd, env });
    t.is(failed.code, 1);
    t.is(failed.stderr.trim().split("\n").length, 1, failed.stderr);
    t.regex(failed.stderr, /^error: .*broken\.csv: /);
    const stored = await runtime.knex("subscriber_imports").where({ company_id: companyId, file_name: "broken.csv" }).first();
    t.like(stored, { status: "failed", added_count: 500 });
    t.regex(stored.error, /^The import stopped: /);
    t.is(await countOf(runtime.knex("subscribers").where({ company_id: companyId }).count("* as n").first()), 500);
  });
}
