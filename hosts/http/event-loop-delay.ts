import { monitorEventLoopDelay } from "node:perf_hooks";

/** How far back "recent" reaches: long enough to hold tens of samples, short enough to recover at once. */
const WINDOW_MS = 500;
const SAMPLE_EVERY_MS = 10;

let recent: (() => number) | undefined;

/**
 * The event loop's recent delay in ms: the mean over the last completed window or the one under
 * way, whichever is worse. A mean (as Fastify's under-pressure uses) tells a loop that stays
 * behind from one long task (a migration, a startup); one monitor per process, started on first
 * use, and reading it is cheap enough for every request.
 */
export function recentEventLoopDelayMs(): number {
  recent ??= startMonitor();
  return recent();
}

function startMonitor(): () => number {
  const histogram = monitorEventLoopDelay({ resolution: SAMPLE_EVERY_MS });
  histogram.enable();
  let previousWindowMs = 0;
  setInterval(() => {
    previousWindowMs = meanMs();
    histogram.reset();
  }, WINDOW_MS).unref();
  // A blocked loop records its delay only once a sample fires; until then the histogram may be empty.
  // The histogram records how late each sample fired, beyond its own resolution.
  const meanMs = () => (histogram.count > 0 ? histogram.mean / 1e6 : 0);
  return () => Math.max(previousWindowMs, meanMs());
}
