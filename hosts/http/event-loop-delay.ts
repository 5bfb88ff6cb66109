import { monitorEventLoopDelay } from "node:perf_hooks";

/** How far back "recent" reaches: long enough to hold tens of samples, short enough to recover at once. */
const WINDOW_MS = 500;
const SAMPLE_EVERY_MS = 10;
const REFRESH_EVERY_MS = 20;

let recent: (() => number) | undefined;

/**
 * The event loop's recent delay in ms: the mean over the last completed window or the one under
 * way, whichever is worse. A mean (as Fastify's under-pressure uses) tells a loop that stays
 * behind from one long task (a migration, a startup); one monitor per process, started on first
 * use. The reading is refreshed by a timer, not per request: reading the histogram per request
 * cost 5% of a busy server's CPU, and after a blocked turn the timers phase runs before new
 * requests are read, so the refreshed value is there in time.
 */
export function recentEventLoopDelayMs(): number {
  recent ??= startMonitor();
  return recent();
}

function startMonitor(): () => number {
  const histogram = monitorEventLoopDelay({ resolution: SAMPLE_EVERY_MS });
  histogram.enable();
  // The histogram records how late each sample fired, beyond its own resolution; until a sample
  // fires it may be empty.
  const meanMs = () => (histogram.count > 0 ? histogram.mean / 1e6 : 0);
  let previousWindowMs = 0;
  let reading = 0;
  setInterval(() => {
    previousWindowMs = meanMs();
    histogram.reset();
  }, WINDOW_MS).unref();
  setInterval(() => {
    reading = Math.max(previousWindowMs, meanMs());
  }, REFRESH_EVERY_MS).unref();
  return () => reading;
}
