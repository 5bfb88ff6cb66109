import { token } from "../shared/token.js";

/** Opaque, time-sortable IDs: a short type prefix, `_`, and a random part (decisions.md). */
export interface IdGenerator {
  next(prefix: string): string;
}
export const IdGenerator = token<IdGenerator>("lifecycle.IdGenerator");
