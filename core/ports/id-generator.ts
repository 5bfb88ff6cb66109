/** Opaque, time-sortable IDs: a short type prefix, `_`, and a random part (decisions.md). */
export interface IdGenerator {
  next(prefix: string): string;
}
export const IdGenerator = Symbol.for("lifecycle.IdGenerator");
