export const MB = 1024 * 1024;

/** Samples the process's resident memory every 50 ms until the returned function is called; that returns the peak seen. */
export function watchMemory(): () => number {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  return () => {
    clearInterval(timer);
    return Math.max(peak, process.memoryUsage().rss);
  };
}
