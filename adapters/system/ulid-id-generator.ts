import { randomFillSync } from "node:crypto";
import { monotonicFactory } from "ulid";
import type { IdGenerator } from "../../core/ports/id-generator.js";

/** Random bytes drawn from the system generator this many at a time. */
const POOL_SIZE = 4096;

/**
 * The same fractions as ulid's own generator (one random byte / 256 per character), but drawn
 * from a pool: its default asks the system for one byte at a time, 16 calls per id.
 */
function pooledRandom(): () => number {
  const pool = new Uint8Array(POOL_SIZE);
  let next = POOL_SIZE;
  return () => {
    if (next === POOL_SIZE) {
      randomFillSync(pool);
      next = 0;
    }
    return pool[next++]! / 256;
  };
}

/** `prefix_` + a ULID: time-sortable, monotonic within a millisecond, 80 random bits. */
export class UlidIdGenerator implements IdGenerator {
  private readonly ulid = monotonicFactory(pooledRandom());

  next(prefix: string): string {
    return `${prefix}_${this.ulid()}`;
  }
}
