import { createReadStream } from "node:fs";
import { pipeline, Readable } from "node:stream";
import { Presets, SingleBar } from "cli-progress";
import type { Command } from "commander";
import { parse } from "csv-parse";
import type { Container } from "inversify";
import { ObjectReadError } from "../../core/ports/object-source.js";
import { decode } from "../../core/shared/codecs.js";
import { isLeft } from "../../core/shared/result.js";
import { DirectImport } from "../../core/subscriber-imports/direct-import.js";
import { CHUNK_SIZE, type SubscriberImport } from "../../core/subscriber-imports/model.js";
import { toImportView } from "../../core/subscriber-imports/view.js";
import { DuplicateStrategyCodec, OptInModeCodec } from "../../core/subscribers/commands.js";
import type { DuplicateStrategy, OptInMode } from "../../core/subscribers/model.js";
import { loadConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { startRuntime } from "../runtime.js";
import { csvRowMapper } from "../../core/subscriber-imports/csv-rows.js";
import { CliError } from "./cli-error.js";
import { openCsvSource, type CsvSource } from "./csv-source.js";
import { runtimeOptions } from "./runtime-options.js";

/** Records in the file, for the progress bar's total: its lines minus the header (quoted line breaks make it an estimate). */
export async function countRecords(file: string): Promise<number> {
  let lines = 0;
  let last = 10;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines += 1;
    if (chunk.length > 0) last = chunk[chunk.length - 1]!;
  }
  if (last !== 10) lines += 1;
  return Math.max(0, lines - 1);
}

export interface CsvImportOptions {
  readonly companyId: string;
  /** A local path, `s3://bucket/key` or `gs://bucket/key`. */
  readonly file: string;
  /** The file already opened (checked readable); opened from `file` when omitted. */
  readonly source?: CsvSource;
  readonly duplicateStrategy: DuplicateStrategy;
  readonly lists: readonly string[];
  /** Whether the contacts it creates are asked to confirm (default: the company's double opt-in setting). */
  readonly optInMode?: OptInMode;
  /** Whether its contacts start the sequences of the lists they join and the tags they get (queued for the worker). */
  readonly enrollInSequences?: boolean;
  /** Called once the import record exists (the company and lists are known), before any row is read. */
  readonly onStarted?: (started: SubscriberImport) => Promise<void> | void;
  /** Called after every chunk with the import as it stands, and the bytes of the file read so far. */
  readonly onProgress?: (current: SubscriberImport, bytesRead: number) => void;
  /** Checked between chunks: true stops the import (it fails as interrupted). */
  readonly stopRequested?: () => boolean;
}

/**
 * Streams a CSV file into one import, CHUNK_SIZE rows at a time, through the same chunk
 * processor as API imports. Memory holds one chunk of rows and the emails seen so far (to skip
 * repeated ones), never the file.
 */
export async function importCsvFile(container: Container, options: CsvImportOptions): Promise<SubscriberImport> {
  const source = options.source ?? (await openCsvSource(options.file));
  const direct = container.get(DirectImport);
  const started = await direct.start(options.companyId, {
    fileName: source.name,
    duplicateStrategy: options.duplicateStrategy,
    lists: options.lists,
    optInMode: options.optInMode,
    enrollInSequences: options.enrollInSequences ?? false,
  });
  if (isLeft(started)) throw new CliError(started.left.message);
  let current = started.right;
  await options.onStarted?.(current);
  const seen = new Set<string>();
  let toRow: ((cells: readonly string[]) => Record<string, unknown>) | undefined;
  let bytesRead = 0;
  async function* counted(): AsyncGenerator<Uint8Array> {
    for await (const chunk of source.read()) {
      bytesRead += chunk.byteLength;
      yield chunk;
    }
  }
  // Lines as arrays of cells (several times faster than records keyed by the header); the first is the header.
  const parser = parse({ bom: true, skip_empty_lines: true, relax_column_count: true });
  // A read failing part-way (a bucket's connection) fails the parser, and so the loop below.
  pipeline(Readable.from(counted()), parser, () => undefined);
  try {
    let batch: Record<string, unknown>[] = [];
    for await (const cells of parser as AsyncIterable<string[]>) {
      if (!toRow) {
        toRow = csvRowMapper(cells);
        continue;
      }
      batch.push(toRow(cells));
      if (batch.length < CHUNK_SIZE) continue;
      current = await direct.addChunk(current, batch, seen);
      batch = [];
      options.onProgress?.(current, bytesRead);
      if (options.stopRequested?.()) return await direct.abort(current, "Interrupted before the end of the file");
    }
    if (batch.length > 0) {
      current = await direct.addChunk(current, batch, seen);
      options.onProgress?.(current, bytesRead);
    }
  } catch (error) {
    parser.destroy();
    const message = error instanceof Error ? error.message : String(error);
    await direct.abort(current, `The import stopped: ${message.split("\n")[0]}`).catch(() => undefined);
    throw new CliError(error instanceof ObjectReadError ? message : `${options.file}: ${message.split("\n")[0]}`);
  }
  return direct.finish(current);
}

interface ImportFlags {
  company: string;
  database?: string;
  duplicateStrategy: string;
  list: string[];
  optInMode: string;
  enrollInSequences?: boolean;
  json?: boolean;
}

const summaryOf = (i: SubscriberImport, name: string) =>
  `imported ${i.processedCount} of ${i.totalRows} rows from ${name}: ${i.addedCount} added, ${i.updatedCount} updated, ${i.skippedCount} skipped, ${i.failedCount} failed (${i.id} ${i.status})`;

/**
 * `lifecycle import-subscribers --company ID FILE.csv`: a CSV file of any size, local or in an S3
 * or GCS bucket (streamed, never held whole), with a progress bar on stderr.
 */
export function registerImportSubscribersCommand(program: Command): void {
  program
    .command("import-subscribers")
    .description(
      "import contacts from a CSV file with a header row (email, first_name, last_name, external_id, tags, phone, timezone, status, created_at; other columns become custom attributes)",
    )
    .argument("<file>", "CSV file to import: a local path, s3://bucket/key or gs://bucket/key")
    .requiredOption("--company <id>", "company ID")
    .option("--database <url>", "database URL (overrides DATABASE_URL)")
    .option("--duplicate-strategy <strategy>", "existing contacts: skip, merge or overwrite", "skip")
    .option(
      "--list <id>",
      "list every added or updated contact joins (repeatable)",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option(
      "--opt-in-mode <mode>",
      "new active contacts: default (the company's double opt-in setting), double_opt_in (asked to confirm) or confirmed",
      "default",
    )
    .option("--enroll-in-sequences", "contacts start the sequences of the lists they join and the tags they get (run by the worker)")
    .option("--json", "print the import as one JSON object")
    .action(async (file: string, flags: ImportFlags) => {
      const strategy = decode(DuplicateStrategyCodec, flags.duplicateStrategy);
      if (isLeft(strategy)) throw new CliError(`--duplicate-strategy must be one of: skip, merge, overwrite (got ${flags.duplicateStrategy})`);
      const optInMode = decode(OptInModeCodec, flags.optInMode);
      if (isLeft(optInMode)) throw new CliError(`--opt-in-mode must be one of: default, double_opt_in, confirmed (got ${flags.optInMode})`);
      // A missing object or a denied read stops here, before anything is imported.
      const source = await openCsvSource(file);

      const config = loadConfig(process.env, { databaseUrl: flags.database });
      const runtime = await startRuntime({ ...runtimeOptions(config, createLogger(config.logLevel)), preloadRenderer: false });
      const bar = new SingleBar(
        { format: "importing |{bar}| {value}/{total} rows | {percentage}% | ETA {eta_formatted}", stream: process.stderr, hideCursor: true },
        Presets.shades_classic,
      );
      let stop = false;
      const interrupt = () => (stop = true);
      process.once("SIGINT", interrupt);
      try {
        const done = await importCsvFile(runtime.container, {
          companyId: flags.company,
          file,
          source,
          duplicateStrategy: strategy.right,
          lists: flags.list,
          optInMode: optInMode.right,
          enrollInSequences: flags.enrollInSequences === true,
          onStarted: async () => bar.start(source.path !== null ? await countRecords(source.path) : 0, 0),
          onProgress: (current, bytesRead) => {
            // A bucket object is read once: its rows are estimated from the share of bytes read.
            const estimated = source.path === null && source.size !== null && bytesRead > 0;
            bar.setTotal(
              estimated
                ? Math.max(current.processedCount, Math.round((current.processedCount * source.size) / bytesRead))
                : Math.max(bar.getTotal(), current.processedCount),
            );
            bar.update(current.processedCount);
          },
          stopRequested: () => stop,
        });
        bar.setTotal(done.processedCount);
        bar.update(done.processedCount);
        bar.stop();
        process.stdout.write(flags.json ? `${JSON.stringify(toImportView(done))}\n` : `${summaryOf(done, source.name)}\n`);
        if (done.status === "failed") throw new CliError(done.error ?? "the import failed");
      } finally {
        bar.stop();
        process.off("SIGINT", interrupt);
        await runtime.close();
      }
    });
}
