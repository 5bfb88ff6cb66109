import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Knex } from "knex";
import { toDbDate } from "../adapters/knex/row-codecs.js";
import { DirectImport } from "../core/subscriber-imports/direct-import.js";
import { CHUNK_SIZE } from "../core/subscriber-imports/model.js";
import { emailProviderOf } from "../core/subscribers/model.js";
import { contactFields, contactRow } from "../fixtures/contacts-csv.js";
import { createCompanyFixture } from "../fixtures/companies.js";
import { infoLogTo } from "./log-file.js";
import { startRuntime, type Runtime } from "../hosts/runtime.js";
import { alternate, ratioLine } from "./rounds.js";
import { count } from "./settings.js";

/**
 * Import of 100,000 contacts through the import pipeline the CLI drives (DirectImport: rows read
 * and checked, repeated emails found, one lookup of existing contacts per chunk, the plan, the
 * multi-row writes of contacts and their tags, the import's progress; one transaction per
 * chunk) into a fresh SQLite file, against the bare work it cannot avoid: the same contacts,
 * already in memory as column values, written to the subscribers table of another fresh SQLite
 * file by multi-row INSERTs of the same batch size (500), one transaction per batch. Both figures
 * in rows per second. The rows are what the CLI makes of the lines of fixtures/contacts-csv.ts
 * (names, an externalId on half of them, tags on two thirds, five custom attributes); reading
 * the CSV itself is not measured.
 */

const NAME = "import-100k";
const GOAL = 0.5;

const COLUMNS = [
  "id",
  "company_id",
  "email",
  "external_id",
  "first_name",
  "last_name",
  "phone",
  "sms_status",
  "status",
  "email_provider",
  "timezone",
  "custom_attributes",
  "unsubscribed_at",
  "created_at",
  "updated_at",
];

/** The same contacts as subscriber column values: what the baseline writes. */
function columnValues(rows: number, companyId: string): unknown[][] {
  const now = toDbDate(new Date());
  return Array.from({ length: rows }, (_, i) => {
    const c = contactFields(i, {});
    const id = `sub_bench${String(i).padStart(17, "0")}`;
    return [
      id,
      companyId,
      c.email,
      c.externalId,
      c.firstName,
      c.lastName,
      null,
      "not_subscribed",
      "active",
      emailProviderOf(c.email),
      null,
      JSON.stringify(c.attributes),
      null,
      now,
      now,
    ];
  });
}

async function bareInsert(knex: Knex, values: readonly unknown[][]): Promise<void> {
  const tuple = `(${COLUMNS.map(() => "?").join(", ")})`;
  for (let start = 0; start < values.length; start += CHUNK_SIZE) {
    const batch = values.slice(start, start + CHUNK_SIZE);
    await knex.transaction(async (trx) => {
      await trx.raw(`insert into subscribers (${COLUMNS.join(", ")}) values ${batch.map(() => tuple).join(", ")}`, batch.flat() as Knex.RawBinding[]);
    });
  }
}

const open = (dir: string, name: string): Promise<Runtime> =>
  startRuntime({ databaseUrl: `sqlite:${join(dir, name)}`, logger: infoLogTo("/dev/null"), baseUrl: "http://127.0.0.1" });

/** Milliseconds the pipeline takes to import `rows` contacts into an empty company. */
async function timeImport(dir: string, file: string, rows: number): Promise<number> {
  const runtime = await open(dir, file);
  try {
    const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
    const data = Array.from({ length: rows }, (_, i) => contactRow(i, {}));
    const direct = runtime.container.get(DirectImport);
    const started = performance.now();
    const begun = await direct.start(company.companyId, { fileName: "contacts.csv", duplicateStrategy: "skip", lists: [] });
    if (begun._tag === "Left") throw new Error(`bench import-100k: ${begun.left.message}`);
    let current = begun.right;
    const seen = new Set<string>();
    for (let at = 0; at < rows; at += CHUNK_SIZE) current = await direct.addChunk(current, data.slice(at, at + CHUNK_SIZE), seen);
    current = await direct.finish(current);
    const elapsed = performance.now() - started;
    if (current.status !== "completed" || current.addedCount !== rows) {
      throw new Error(
        `bench import-100k: the import is ${current.status} with ${current.addedCount} of ${rows} contacts added (${JSON.stringify(current.failedReasons)})`,
      );
    }
    return elapsed;
  } finally {
    await runtime.close();
  }
}

/** Milliseconds the bare batched INSERT of the same contacts takes. */
async function timeBaseline(dir: string, file: string, rows: number): Promise<number> {
  const runtime = await open(dir, file);
  try {
    const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
    const values = columnValues(rows, company.companyId);
    const started = performance.now();
    await bareInsert(runtime.knex, values);
    return performance.now() - started;
  } finally {
    await runtime.close();
  }
}

export async function import100k(): Promise<string> {
  const rows = count("BENCH_IMPORT_ROWS", 100_000);
  const rounds = count("BENCH_ROUNDS", 3);
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  try {
    // Each round writes a fresh database file of its own, so no round inherits another's pages.
    const comparison = await alternate(
      NAME,
      rounds,
      "rows/s",
      async (round) => rows / ((await timeBaseline(dir, `baseline-${round}.sqlite`, rows)) / 1000),
      async (round) => rows / ((await timeImport(dir, `import-${round}.sqlite`, rows)) / 1000),
    );
    return ratioLine(NAME, "rows/s", comparison, GOAL, ["LOG_LEVEL=info to /dev/null", `${rows} contacts`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
