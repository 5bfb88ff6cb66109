import { fork } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createRequire } from "node:module";
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { Knex } from "knex";
import { toDbDate } from "../adapters/knex/row-codecs.js";
import { ALL_SCOPES } from "../core/access/scopes.js";
import { CreateDataExport } from "../core/data-exports/create-data-export.js";
import type { Manifest } from "../core/data-exports/manifest.js";
import { DEFAULT_RUN_OPTIONS, RunDataExport } from "../core/data-exports/run-data-export.js";
import type { Actor } from "../core/shared/actor.js";
import { createCompanyFixture } from "../fixtures/companies.js";
import { startRuntime } from "../hosts/runtime.js";
import { infoLogTo } from "./log-file.js";
import { MB, watchMemory } from "./memory-watch.js";
import { alternate, ratioLine } from "./rounds.js";
import { count } from "./settings.js";

/**
 * Export of 1,000,000 email events (with their sends' recipient, type and subject) from a SQLite
 * file to a local S3 protocol server (s3rver on loopback, in a process of its own, as a bucket is
 * elsewhere) by the export's run (the use case the worker's job runs: keyset pages, gzipped JSON
 * Lines files of 100,000 rows, multipart uploads, a commit per file, the manifest), against what
 * an expert would write for the same output without the product: one streaming query
 * (better-sqlite3 `iterate`) over the same rows, each row written as the same JSON line, gzipped
 * by node:zlib into one local file. Alternating rounds (each product round is a new export, so it
 * exports every row again); both outputs are read back and must hold the same lines in the same
 * order. The peak resident memory of the product's runs shows that nothing is held whole: it must
 * stay within FLAT_MEMORY_MB of where it started, at any size.
 */

const NAME = "export-1m";
const GOAL = 0.6;
/** How far the product's resident memory may grow during a run, whatever the number of rows. */
const FLAT_MEMORY_MB = 150;
const EVENTS_PER_SEND = 10;
/** About the product's chunk of JSON lines handed to gzip at a time. */
const CHUNK_CHARS = 64 * 1024;

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

const EVENTS_QUERY = `select e.id, e.event_type, e.event_time, e.created_at, e.email_send_id, e.bounce_type, e.bounce_sub_type, e.url,
        e.machine, e.machine_reason, e.user_agent, e.ip,
        s.subscriber_id, s.recipient_email, s.email_type, s.subject, s.campaign_id, s.transactional_email_id,
        s.automation_id, s.template_id, s.is_test
   from email_events e join email_sends s on s.id = e.email_send_id
  where e.company_id = ? and e.created_at >= ? and e.created_at < ?
  order by e.created_at, e.id`;

interface EventRow {
  [column: string]: string | number | null;
}

/** The part of better-sqlite3 the baseline uses (the package ships no types of its own). */
interface SqliteFile {
  prepare(sql: string): { iterate(...params: unknown[]): IterableIterator<EventRow> };
  close(): void;
}
const Database = createRequire(import.meta.url)("better-sqlite3") as new (path: string, options: { readonly: boolean; fileMustExist: boolean }) => SqliteFile;

/** The export's documented record (README, Data exports), field for field. */
const recordOf = (r: EventRow) => ({
  id: r.id,
  type: r.event_type,
  occurredAt: r.event_time,
  recordedAt: r.created_at,
  emailSendId: r.email_send_id,
  subscriberId: r.subscriber_id,
  recipientEmail: r.recipient_email,
  emailType: r.email_type,
  subject: r.subject,
  campaignId: r.campaign_id,
  transactionalEmailId: r.transactional_email_id,
  automationId: r.automation_id,
  templateId: r.template_id,
  isTest: r.is_test === 1,
  bounceType: r.bounce_type,
  bounceSubType: r.bounce_sub_type,
  url: r.url,
  machine: r.machine === 1,
  machineReason: r.machine_reason,
  userAgent: r.user_agent,
  ip: r.ip,
});

/** The baseline: one streaming query, JSON lines in chunks, node:zlib, one local file. */
async function writeLocalFile(databaseFile: string, companyId: string, from: Date, before: Date, file: string): Promise<void> {
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare(EVENTS_QUERY).iterate(companyId, toDbDate(from), toDbDate(before));
    function* chunks(): Generator<string> {
      let chunk = "";
      for (const row of rows) {
        chunk += `${JSON.stringify(recordOf(row))}\n`;
        if (chunk.length >= CHUNK_CHARS) {
          yield chunk;
          chunk = "";
        }
      }
      if (chunk !== "") yield chunk;
    }
    await pipeline(Readable.from(chunks()), createGzip(), createWriteStream(file));
  } finally {
    db.close();
  }
}

/** Lines and a digest of gzipped JSON Lines streams read one after the other, as one text. */
async function digestOf(streams: ReadonlyArray<() => Promise<NodeJS.ReadableStream>>): Promise<{ lines: number; sha256: string }> {
  const hash = createHash("sha256");
  let lines = 0;
  for (const open of streams) {
    const gunzip = (await open()).pipe(createGunzip());
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      hash.update(chunk);
      for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
    }
  }
  return { lines, sha256: hash.digest("hex") };
}

export async function export1m(): Promise<string> {
  const events = count("BENCH_EXPORT_EVENTS", 1_000_000);
  const rounds = count("BENCH_ROUNDS", 3);
  const dir = mkdtempSync(join(tmpdir(), "lifecycle-bench-"));
  const s3 = fork(new URL("./s3-server-process.js", import.meta.url), [join(dir, "s3")], { execArgv: [], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const s3Closed = once(s3, "exit");
  const [{ port }] = (await Promise.race([once(s3, "message"), s3Closed.then(() => Promise.reject(new Error("s3rver exited")))])) as [{ port: number }];
  const endpoint = `http://127.0.0.1:${port}`;
  const bucket = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  const databaseFile = join(dir, "export.sqlite");
  const runtime = await startRuntime({
    databaseUrl: `sqlite:${databaseFile}`,
    logger: infoLogTo(join(dir, "product.log")),
    baseUrl: "http://127.0.0.1",
    // s3rver listens on loopback, which exports refuse by default (a private destination).
    allowPrivateDestinations: true,
  });
  try {
    const company = await createCompanyFixture(runtime.container, { name: "Bench Company" });
    const end = Date.now() - 5 * 60_000;
    const seeding = performance.now();
    await seed(runtime.knex, company.companyId, events, end);
    process.stderr.write(`${NAME}: ${events} email events seeded in ${Math.round(performance.now() - seeding)} ms\n`);

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
    const before = new Date(Date.now() - DEFAULT_RUN_OPTIONS.settleMs);
    const objectStream = async (key: string) => (await bucket.send(new GetObjectCommand({ Bucket: "lake", Key: key }))).Body as NodeJS.ReadableStream;

    /** A new export (so every row is due again) run to the bucket; its files read back and digested. */
    const exportRound = async (round: number) => {
      const pathPrefix = `bench-${round}`;
      const created = await runtime.container.get(CreateDataExport).execute(actor, {
        name: `Bench ${round}`,
        provider: "s3",
        bucket: "lake",
        endpoint,
        region: "us-east-1",
        pathPrefix,
        accessKeyId: "S3RVER",
        secretAccessKey: "S3RVER",
        datasets: ["email_events"],
        startFrom,
      });
      if (created._tag === "Left") throw new Error(`bench ${NAME}: ${created.left.message}`);
      const runId = (await runtime.knex("data_export_runs").where({ data_export_id: created.right.id }).first("id")).id as string;
      const rssBefore = process.memoryUsage().rss;
      const peak = watchMemory();
      const started = performance.now();
      const run = await runtime.container.get(RunDataExport).execute(company.companyId, created.right.id, runId);
      const seconds = (performance.now() - started) / 1000;
      const peakRss = peak();
      const growth = (peakRss - rssBefore) / MB;
      if (run?.status !== "succeeded" || run.rowsExported !== events) {
        throw new Error(`bench ${NAME}: the run is ${run?.status} with ${run?.rowsExported} of ${events} rows (${run?.error ?? ""})`);
      }
      const manifest = JSON.parse(
        await new Response(Readable.toWeb(Readable.from(await objectStream(`${pathPrefix}/_manifests/${runId}.json`)))).text(),
      ) as Manifest;
      return {
        seconds,
        growth,
        peak: peakRss / MB,
        files: manifest.files.length,
        digest: await digestOf(manifest.files.map((file) => () => objectStream(file.key))),
      };
    };
    const file = join(dir, "baseline.jsonl.gz");
    const baselineRound = async () => {
      const rssBefore = process.memoryUsage().rss;
      const peak = watchMemory();
      const started = performance.now();
      await writeLocalFile(databaseFile, company.companyId, startFrom, before, file);
      const seconds = (performance.now() - started) / 1000;
      const peakRss = peak();
      return { seconds, growth: (peakRss - rssBefore) / MB, peak: peakRss / MB, digest: await digestOf([async () => createReadStream(file)]) };
    };

    // A first pass of the baseline warms the page cache and the JIT for both.
    const expected = (await baselineRound()).digest;
    if (expected.lines !== events) throw new Error(`bench ${NAME}: the baseline wrote ${expected.lines} of ${events} rows`);
    let productGrowth = 0;
    let productPeak = 0;
    let baselineGrowth = 0;
    let baselinePeak = 0;
    let files = 0;
    const comparison = await alternate(
      NAME,
      rounds,
      "rows/s",
      async () => {
        const result = await baselineRound();
        if (result.digest.sha256 !== expected.sha256) throw new Error(`bench ${NAME}: the baseline wrote other lines than in its first pass`);
        baselineGrowth = Math.max(baselineGrowth, result.growth);
        baselinePeak = Math.max(baselinePeak, result.peak);
        return events / result.seconds;
      },
      async (round) => {
        const result = await exportRound(round);
        // The same rows, as the same lines, in the same order as the independent baseline's.
        if (result.digest.lines !== events || result.digest.sha256 !== expected.sha256) {
          throw new Error(`bench ${NAME}: the exported files read back hold ${result.digest.lines} lines that differ from the baseline's ${events}`);
        }
        productGrowth = Math.max(productGrowth, result.growth);
        productPeak = Math.max(productPeak, result.peak);
        files = result.files;
        return events / result.seconds;
      },
    );
    const flat = productGrowth <= FLAT_MEMORY_MB;
    process.stderr.write(`  ${files} files a run; peak RSS growth: product ${Math.round(productGrowth)} MB, baseline ${Math.round(baselineGrowth)} MB\n`);
    return ratioLine(NAME, "rows/s", comparison, GOAL, [
      `peak RSS ${Math.round(productPeak)} MB (+${Math.round(productGrowth)} MB in a run; goal <= +${FLAT_MEMORY_MB} MB: ${flat ? "met" : "missed"}) vs baseline ${Math.round(baselinePeak)} MB (+${Math.round(baselineGrowth)} MB)`,
      "LOG_LEVEL=info to a file",
    ]);
  } finally {
    bucket.destroy();
    await runtime.close();
    s3.disconnect();
    await s3Closed;
    rmSync(dir, { recursive: true, force: true });
  }
}
