import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type { Knex } from "knex";
import S3rver from "s3rver";
import { KnexExportSource } from "../adapters/knex/repositories/export-source.js";
import { toDbDate } from "../adapters/knex/row-codecs.js";
import { ALL_SCOPES } from "../core/access/scopes.js";
import { CreateDataExport } from "../core/data-exports/create-data-export.js";
import { NodeGzip } from "../adapters/compression/node-gzip.js";
import { jsonLines } from "../core/data-exports/json-lines.js";
import { DEFAULT_RUN_OPTIONS, RunDataExport } from "../core/data-exports/run-data-export.js";
import type { Actor } from "../core/shared/actor.js";
import { createCompanyFixture } from "../fixtures/companies.js";
import { createLogger } from "../hosts/logger.js";
import { startRuntime } from "../hosts/runtime.js";
import { count } from "./settings.js";

/**
 * Export of 1,000,000 email events (with their sends' recipient, type and subject) from a SQLite
 * file to a local S3 protocol server (s3rver on loopback) by the export's run (the same use case
 * the worker's job runs: keyset pages, gzipped JSON Lines files of 100,000 rows, multipart
 * uploads, a commit per file, the manifest), against the least the same output needs: the same
 * rows read through the same source adapter, page after page, encoded the same way, written as
 * one gzipped JSON Lines file to the local disk. Both in rows per second; the peak resident memory of each phase shows
 * that nothing is held whole (a run streams).
 */

const GOAL = 0.5;
const EVENTS_PER_SEND = 10;
const MB = 1024 * 1024;

/** Sends and their events written straight into the tables, spread over the two days before `end`. */
async function seed(knex: Knex, companyId: string, events: number, end: number): Promise<void> {
  const sends = Math.ceil(events / EVENTS_PER_SEND);
  const span = 2 * 24 * 3_600_000;
  const types = ["delivery", "open", "open", "click", "open", "delivery", "open", "click", "open", "open"];
  const sendColumns = [
    "id",
    "company_id",
    "recipient_email",
    "email_type",
    "campaign_id",
    "subject",
    "sender_email",
    "status",
    "mailbox_provider",
    "created_at",
    "updated_at",
  ];
  const eventColumns = ["id", "company_id", "email_send_id", "event_type", "event_time", "url", "machine", "created_at"];
  const insert = async (trx: Knex.Transaction, table: string, columns: string[], rows: unknown[][]) => {
    const tuple = `(${columns.map(() => "?").join(", ")})`;
    await trx.raw(`insert into ${table} (${columns.join(", ")}) values ${rows.map(() => tuple).join(", ")}`, rows.flat() as Knex.RawBinding[]);
  };
  await knex.transaction(async (trx) => {
    const batch = 3_000;
    for (let start = 0; start < sends; start += batch / EVENTS_PER_SEND) {
      const sendRows: unknown[][] = [];
      const eventRows: unknown[][] = [];
      for (let s = start; s < Math.min(sends, start + batch / EVENTS_PER_SEND); s += 1) {
        const sendId = `snd_bench${String(s).padStart(9, "0")}`;
        const sentAt = end - span + Math.floor((s / sends) * span);
        sendRows.push([
          sendId,
          companyId,
          `person${s}@example.com`,
          "campaign",
          "cmp_bench",
          `Weekly news ${s % 50}`,
          "news@brand.example",
          "delivered",
          "gmail",
          toDbDate(new Date(sentAt)),
          toDbDate(new Date(sentAt)),
        ]);
        for (let e = 0; e < EVENTS_PER_SEND && s * EVENTS_PER_SEND + e < events; e += 1) {
          const at = toDbDate(new Date(sentAt + e * 1_000));
          const type = types[e]!;
          eventRows.push([
            `eev_bench${String(s * EVENTS_PER_SEND + e).padStart(10, "0")}`,
            companyId,
            sendId,
            type,
            at,
            type === "click" ? "https://brand.example/sale" : null,
            0,
            at,
          ]);
        }
      }
      await insert(trx, "email_sends", sendColumns, sendRows);
      await insert(trx, "email_events", eventColumns, eventRows);
    }
  });
  await knex.raw("analyze");
}

/** Samples the resident set size until stopped; resolves to the peak. */
function watchMemory(): () => number {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage().rss);
  };
}

/**
 * The baseline: the same rows, read page by page (the next page read while the current one is
 * compressed, as the run does), encoded by the same gzipped JSON Lines encoder, into one file on
 * the local disk.
 */
async function writeLocalFile(source: KnexExportSource, companyId: string, from: Date, before: Date, file: string): Promise<number> {
  const pageSize = DEFAULT_RUN_OPTIONS.pageSize;
  let rows = 0;
  async function* records(): AsyncGenerator<unknown> {
    let next = source.emailEvents(companyId, { at: from, id: "" }, before, pageSize);
    for (;;) {
      const page = await next;
      const last = page[page.length - 1];
      if (last === undefined) return;
      next = source.emailEvents(companyId, { at: new Date(last.recordedAt), id: last.id }, before, pageSize);
      rows += page.length;
      for (const row of page) yield row.record;
    }
  }
  await pipeline(Readable.from(new NodeGzip().compress(jsonLines(records()))), createWriteStream(file));
  return rows;
}

export async function export1m(): Promise<string> {
  const events = count("BENCH_EXPORT_EVENTS", 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  const s3 = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: join(dir, "s3"), configureBuckets: [{ name: "lake", configs: [] }] });
  const { port } = await s3.run();
  const runtime = await startRuntime({
    databaseUrl: `sqlite:${join(dir, "export.sqlite")}`,
    logger: createLogger("silent"),
    baseUrl: "http://127.0.0.1",
    allowPrivateDestinations: true,
  });
  try {
    const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
    const end = Date.now() - 5 * 60_000;
    const seeding = performance.now();
    await seed(runtime.knex, company.companyId, events, end);
    process.stderr.write(`export-1m: ${events} email events seeded in ${Math.round(performance.now() - seeding)} ms\n`);

    const actor: Actor = {
      companyId: company.companyId,
      memberId: company.ownerMemberId,
      userId: "",
      role: "owner",
      scopes: new Set(ALL_SCOPES),
      apiKeyId: company.ownerKeyId,
      apiKeyPreset: "full_access",
    };
    const startFrom = new Date(end - 3 * 24 * 3_600_000);
    const created = await runtime.container.get(CreateDataExport).execute(actor, {
      name: "Bench",
      provider: "s3",
      bucket: "lake",
      endpoint: `http://127.0.0.1:${port}`,
      region: "us-east-1",
      pathPrefix: "bench",
      accessKeyId: "S3RVER",
      secretAccessKey: "S3RVER",
      datasets: ["email_events"],
      startFrom,
    });
    if (created._tag === "Left") throw new Error(`bench export-1m: ${created.left.message}`);
    const runId = (await runtime.knex("data_export_runs").where({ data_export_id: created.right.id }).first("id")).id as string;

    // A first pass of the baseline warms the page cache and the JIT for both; the timed baseline runs after the export.
    const source = new KnexExportSource(runtime.knex);
    const before = new Date(Date.now() - DEFAULT_RUN_OPTIONS.settleMs);
    const file = join(dir, "baseline.jsonl.gz");
    const warmRows = await writeLocalFile(source, company.companyId, startFrom, before, file);
    if (warmRows !== events) throw new Error(`bench export-1m: the baseline wrote ${warmRows} of ${events} rows`);

    const exportRss = process.memoryUsage().rss;
    const exportPeak = watchMemory();
    const exportStarted = performance.now();
    const run = await runtime.container.get(RunDataExport).execute(company.companyId, created.right.id, runId);
    const exportMs = performance.now() - exportStarted;
    const exportPeakRss = exportPeak();
    if (run?.status !== "succeeded" || run.rowsExported !== events) {
      throw new Error(`bench export-1m: the run is ${run?.status} with ${run?.rowsExported} of ${events} rows (${run?.error ?? ""})`);
    }

    const baselineRss = process.memoryUsage().rss;
    const baselinePeak = watchMemory();
    const baselineStarted = performance.now();
    await writeLocalFile(source, company.companyId, startFrom, before, file);
    const baselineMs = performance.now() - baselineStarted;
    const baselinePeakRss = baselinePeak();

    const figure = events / (exportMs / 1000);
    const baseline = events / (baselineMs / 1000);
    process.stderr.write(
      `export-1m: run ${Math.round(exportMs)} ms (${run.filesWritten} files, ${(run.bytesWritten / MB).toFixed(1)} MB gzipped), peak RSS ${Math.round(exportPeakRss / MB)} MB (from ${Math.round(exportRss / MB)} MB); ` +
        `local file ${Math.round(baselineMs)} ms (${(statSync(file).size / MB).toFixed(1)} MB), peak RSS ${Math.round(baselinePeakRss / MB)} MB (from ${Math.round(baselineRss / MB)} MB)\n`,
    );
    return `bench export-1m: ${Math.round(figure)} rows/s vs baseline ${Math.round(baseline)} rows/s = ratio ${(figure / baseline).toFixed(2)} (goal >= ${GOAL})`;
  } finally {
    await runtime.close();
    await s3.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
