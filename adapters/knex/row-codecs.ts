import * as t from "io-ts";
import { isLeft } from "fp-ts/lib/Either.js";
import { reportErrors } from "../../core/shared/codecs.js";

/**
 * Row codecs absorb the dialect differences (Postgres returns Dates, parsed JSON and counts as
 * strings; SQLite returns text and 0/1) and make bad data fail loudly at the edge.
 */
export const DbDate = new t.Type<Date, string, unknown>(
  "DbDate",
  (u): u is Date => u instanceof Date,
  (u, c) => {
    const date = u instanceof Date ? u : typeof u === "string" || typeof u === "number" ? new Date(u) : null;
    return date && !Number.isNaN(date.getTime()) ? t.success(date) : t.failure(u, c, "is not a timestamp");
  },
  (d) => d.toISOString(),
);

export const DbNullableDate = t.union([DbDate, t.null]);

/** A JSON column: text on SQLite, already parsed on Postgres. */
export const dbJson = <A, O>(codec: t.Type<A, O, unknown>) =>
  new t.Type<A, string, unknown>(
    `DbJson<${codec.name}>`,
    codec.is,
    (u, c) => {
      if (typeof u !== "string") return codec.validate(u, c);
      try {
        return codec.validate(JSON.parse(u), c);
      } catch {
        return t.failure(u, c, "is not JSON");
      }
    },
    (a) => JSON.stringify(codec.encode(a)),
  );

export const DbBoolean = new t.Type<boolean, number, unknown>(
  "DbBoolean",
  (u): u is boolean => typeof u === "boolean",
  (u, c) => (typeof u === "boolean" ? t.success(u) : u === 0 || u === 1 ? t.success(u === 1) : t.failure(u, c, "is not a boolean")),
  (b) => (b ? 1 : 0),
);

export const DbInteger = new t.Type<number, number, unknown>(
  "DbInteger",
  (u): u is number => Number.isInteger(u),
  (u, c) => {
    const n = typeof u === "string" && /^-?\d+$/.test(u) ? Number(u) : u;
    return typeof n === "number" && Number.isSafeInteger(n)
      ? t.success(n)
      : typeof n === "bigint"
        ? t.success(Number(n))
        : t.failure(u, c, "is not an integer");
  },
  t.identity,
);

/** Decodes one row or throws, naming the table and the offending columns. */
export function decodeRow<A>(codec: t.Decoder<unknown, A>, row: unknown, table: string): A {
  const result = codec.decode(row);
  if (isLeft(result)) {
    const problems = reportErrors(result.left).map((e) => `${e.path} ${e.message}`);
    throw new Error(`Unreadable ${table} row: ${problems.join("; ")}`);
  }
  return result.right;
}

/** A timestamp as both dialects store it. */
export const toDbDate = (date: Date | null): string | null => (date ? date.toISOString() : null);
