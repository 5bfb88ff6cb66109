/** A small deterministic generator, so every run of a benchmark seeds the same data. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The nearest-rank percentile `p` (0-100) of `values`. */
export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** Runs `once` (which times itself, in ms) three times to warm up and then `runs` times; reports the spread on stderr and resolves to the median. */
export async function medianOfRuns(once: () => Promise<number>, runs: number): Promise<number> {
  for (let i = 0; i < 3; i += 1) await once();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) times.push(await once());
  process.stderr.write(`  ${runs} runs: min ${Math.min(...times).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms\n`);
  return median(times);
}
