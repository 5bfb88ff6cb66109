import type { Server } from "node:http";
import type { Express } from "express";

/**
 * The sizes every benchmark reads from the environment (`BENCH_*`), and the small ones of quick
 * mode (`npm run bench -- --quick`): enough to run each benchmark end to end, verification
 * included, in seconds. Quick mode only fills in what the environment leaves unset, so
 * `BENCH_JOBS=2000 npm run bench -- --quick jobs-sqlite` still runs 2,000 jobs.
 */
const QUICK_SIZES: Readonly<Record<string, string>> = {
  BENCH_DURATION: "1",
  BENCH_WARMUP: "0.5",
  BENCH_ROUNDS: "2",
  BENCH_CONTACTS: "2000",
  BENCH_CAMPAIGN_CONTACTS: "2000",
  BENCH_SENDS: "5000",
  BENCH_EXPORT_EVENTS: "5000",
  BENCH_IMPORT_ROWS: "2000",
  BENCH_JOBS: "500",
  BENCH_MESSAGES: "100",
  BENCH_SEQUENCE_CONTACTS: "400",
  BENCH_SEQUENCE_PROBES: "10",
  BENCH_WEBHOOK_EVENTS: "1000",
};

/** Set by `--quick` before any benchmark module is loaded (some read their sizes when loaded). */
const QUICK_FLAG = "BENCH_QUICK";

export function enterQuickMode(): void {
  process.env[QUICK_FLAG] = "1";
  for (const [name, value] of Object.entries(QUICK_SIZES)) if (!process.env[name]) process.env[name] = value;
}

export const isQuick = (): boolean => process.env[QUICK_FLAG] === "1";

/** A positive number of seconds from the environment, or the fallback when unset. */
export const seconds = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number of seconds (got ${raw})`);
  return value;
};

/** A positive integer from the environment, or the fallback when unset. */
export const count = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer (got ${raw})`);
  return value;
};

/** Serves `app` on an ephemeral loopback port. */
export function listen(app: Express): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, "127.0.0.1", (error?: Error) => (error ? reject(error) : resolve(server)));
  });
}

export function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}
