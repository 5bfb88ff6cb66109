/**
 * Runs `work` on every item, at most `width` at a time. Every item is run even when one fails, so
 * no work is left going on behind a failed batch; then the first failure is thrown.
 */
export async function eachInFlight<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const failures: unknown[] = [];
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++]!;
        await work(item).catch((error: unknown) => failures.push(error));
      }
    }),
  );
  if (failures.length > 0) throw failures[0];
}
