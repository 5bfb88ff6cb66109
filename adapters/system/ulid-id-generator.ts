import { monotonicFactory } from "ulid";
import type { IdGenerator } from "../../core/ports/id-generator.js";

/** `prefix_` + a ULID: time-sortable, monotonic within a millisecond, 80 random bits. */
export class UlidIdGenerator implements IdGenerator {
  private readonly ulid = monotonicFactory();

  next(prefix: string): string {
    return `${prefix}_${this.ulid()}`;
  }
}
