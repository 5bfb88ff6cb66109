import { recordResults, startRecording } from "./record.js";
import { enterQuickMode, isQuick } from "./settings.js";

/**
 * Every benchmark, by name, loaded only when it runs (some read their sizes from the environment
 * when loaded, after `--quick` has set them). Each resolves to its one summary line, printed on
 * stdout; progress goes to stderr. Adding a benchmark is one file and one line here.
 */
const benchmarks: Record<string, () => Promise<() => Promise<string>>> = {
  "api-auth-get": async () => (await import("./api-auth-get.js")).apiAuthGet,
  "jobs-sqlite": async () => (await import("./jobs.js")).jobsSqlite,
  "jobs-postgres": async () => (await import("./jobs.js")).jobsPostgres,
  "segment-count": async () => (await import("./segment-count.js")).segmentCount,
  "segment-engagement-sqlite": async () => (await import("./segment-engagement.js")).segmentEngagementSqlite,
  "segment-engagement-postgres": async () => (await import("./segment-engagement.js")).segmentEngagementPostgres,
  "events-ingest": async () => (await import("./events-ingest.js")).eventsIngest,
  "import-100k": async () => (await import("./import-100k.js")).import100k,
  "metrics-sqlite": async () => (await import("./metrics.js")).metricsSqlite,
  "metrics-postgres": async () => (await import("./metrics.js")).metricsPostgres,
  "transactional-send": async () => (await import("./transactional-send.js")).transactionalSend,
  "sequence-steps": async () => (await import("./sequence-steps.js")).sequenceSteps,
  "export-1m": async () => (await import("./export-1m.js")).export1m,
  "webhook-fanout": async () => (await import("./webhook-fanout.js")).webhookFanout,
  "campaign-send": async () => (await import("./campaign-send.js")).campaignSend,
  "web-events": async () => (await import("./web-events.js")).webEvents,
};

const USAGE = `usage: npm run bench -- [--quick | --record] [NAME...]
  --quick   small sizes, seconds per benchmark: checks that a benchmark runs; its lines are not results
  --record  runs every benchmark at full size and rewrites the results section of BENCHMARKS.md
`;

/** Marks a quick line so that nobody reads it as a result. */
const QUICK_MARK = "  (quick run: not a result)";

const elapsed = (ms: number): string => (ms < 120_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 60_000).toFixed(1)} min`);

async function main(args: readonly string[]): Promise<void> {
  const flags = args.filter((arg) => arg.startsWith("-"));
  const names = args.filter((arg) => !arg.startsWith("-"));
  const unknownFlags = flags.filter((flag) => flag !== "--quick" && flag !== "--record");
  const unknown = names.filter((name) => !Object.hasOwn(benchmarks, name));
  if (unknownFlags.length > 0 || unknown.length > 0) {
    if (unknown.length > 0) process.stderr.write(`unknown benchmark: ${unknown.join(", ")}\nknown benchmarks: ${Object.keys(benchmarks).join(", ")}\n`);
    process.stderr.write(USAGE);
    process.exit(2);
  }
  const record = flags.includes("--record");
  if (flags.includes("--quick")) enterQuickMode();
  if (record && (isQuick() || names.length > 0)) {
    process.stderr.write("--record runs every benchmark at full size: it takes neither --quick nor names\n");
    process.exit(2);
  }
  const recording = record ? startRecording() : null;

  const lines: string[] = [];
  const chosen = names.length > 0 ? names : Object.keys(benchmarks);
  const runStarted = Date.now();
  let failed = 0;
  for (const [index, name] of chosen.entries()) {
    // Where a run of hours stands, and what each benchmark took: a record must fit a quiet spell.
    const started = Date.now();
    process.stderr.write(`[${index + 1}/${chosen.length}] ${name}: started ${new Date(started).toISOString()}\n`);
    let line: string;
    try {
      const benchmark = await benchmarks[name]!();
      line = `${await benchmark()}${isQuick() ? QUICK_MARK : ""}`;
    } catch (error) {
      // A record goes on past a failed benchmark, so an hour's other results are not lost; the failure is its line.
      if (!recording) throw error;
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      failed += 1;
      line = `bench ${name}: failed after ${elapsed(Date.now() - started)}: ${error instanceof Error ? error.message : String(error)}`.replace(/\s+/g, " ");
    }
    process.stdout.write(`${line}\n`);
    process.stderr.write(
      `[${index + 1}/${chosen.length}] ${name}: took ${elapsed(Date.now() - started)}, ${elapsed(Date.now() - runStarted)} since the run started\n`,
    );
    lines.push(line);
  }
  if (recording) process.stderr.write(`results recorded in ${recordResults(recording, lines)}\n`);
  if (failed > 0) process.exitCode = 1;
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
