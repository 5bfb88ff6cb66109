import { apiAuthGet } from "./api-auth-get.js";
import { eventsIngest } from "./events-ingest.js";
import { import100k } from "./import-100k.js";
import { jobsPostgres, jobsSqlite } from "./jobs.js";
import { segmentCount } from "./segment-count.js";
import { segmentEngagementPostgres, segmentEngagementSqlite } from "./segment-engagement.js";
import { metricsPostgres, metricsSqlite } from "./metrics.js";
import { transactionalSend } from "./transactional-send.js";
import { export1m } from "./export-1m.js";

/**
 * Every benchmark, by name. Each resolves to its one summary line, which is printed on stdout
 * (progress goes to stderr). Adding a benchmark is one file and one line here.
 */
const benchmarks: Record<string, () => Promise<string>> = {
  "api-auth-get": apiAuthGet,
  "jobs-sqlite": jobsSqlite,
  "jobs-postgres": jobsPostgres,
  "segment-count": segmentCount,
  "segment-engagement-sqlite": segmentEngagementSqlite,
  "segment-engagement-postgres": segmentEngagementPostgres,
  "events-ingest": eventsIngest,
  "import-100k": import100k,
  "metrics-sqlite": metricsSqlite,
  "metrics-postgres": metricsPostgres,
  "transactional-send": transactionalSend,
  "export-1m": export1m,
};

async function main(names: readonly string[]): Promise<void> {
  const unknown = names.filter((name) => !Object.hasOwn(benchmarks, name));
  if (unknown.length > 0) {
    process.stderr.write(`unknown benchmark: ${unknown.join(", ")}\nknown benchmarks: ${Object.keys(benchmarks).join(", ")}\n`);
    process.exit(2);
  }
  for (const name of names.length > 0 ? names : Object.keys(benchmarks)) {
    process.stdout.write(`${await benchmarks[name]!()}\n`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
