import * as t from "io-ts";
import { isLeft } from "fp-ts/lib/Either.js";
import { isEmailAddress, MAX_EMAIL_LENGTH, normaliseEmailAddress } from "./email-address.js";
import { invalid, type FieldError } from "./errors.js";
import { toJsonSchema, withSchema, type JsonSchema } from "./json-schema.js";
import { fail, ok, type Result } from "./result.js";

/**
 * Shared io-ts codecs and the 422 reporter. Every input (HTTP body, query, path, CLI flag,
 * environment variable) is decoded through these, so one rule reads the same everywhere.
 */

/** A string with surrounding white space removed that is not blank. */
export const TrimmedNonEmpty = withSchema(
  new t.Type<string, string, unknown>(
    "TrimmedNonEmpty",
    (u): u is string => typeof u === "string" && u.trim() === u && u.length > 0,
    (u, c) => {
      if (typeof u !== "string") return t.failure(u, c, "must be a string");
      const trimmed = u.trim();
      return trimmed.length > 0 ? t.success(trimmed) : t.failure(u, c, "must not be blank");
    },
    t.identity,
  ),
  { type: "string", minLength: 1 },
);

/** A string of at most `max` characters after trimming, not blank. */
export const boundedText = (max: number) =>
  withSchema(
    new t.Type<string, string, unknown>(
      `Text(1..${max})`,
      (u): u is string => typeof u === "string" && u.length > 0 && u.length <= max,
      (u, c) => {
        if (typeof u !== "string") return t.failure(u, c, "must be a string");
        const trimmed = u.trim();
        if (trimmed.length === 0) return t.failure(u, c, "must not be blank");
        if (trimmed.length > max) return t.failure(u, c, `must be at most ${max} characters`);
        return t.success(trimmed);
      },
      t.identity,
    ),
    { type: "string", minLength: 1, maxLength: max },
  );

/** An email address, trimmed and lower-cased. */
export const Email = withSchema(
  new t.Type<string, string, unknown>(
    "Email",
    (u): u is string => typeof u === "string" && isEmailAddress(u),
    (u, c) => {
      if (typeof u !== "string") return t.failure(u, c, "must be a string");
      const normalised = normaliseEmailAddress(u);
      return normalised !== null ? t.success(normalised) : t.failure(u, c, "must be a valid email address");
    },
    t.identity,
  ),
  { type: "string", format: "email", maxLength: MAX_EMAIL_LENGTH },
);

/** An integer given as a string (query strings, CLI flags, environment). */
export const IntegerFromString = withSchema(
  new t.Type<number, string, unknown>(
    "IntegerFromString",
    (u): u is number => Number.isInteger(u),
    (u, c) => {
      if (typeof u === "number" && Number.isSafeInteger(u)) return t.success(u);
      // Digits only, and small enough to be exact: `1e20` or 21 digits are not paging numbers.
      if (typeof u === "string" && /^-?\d+$/.test(u.trim()) && Number.isSafeInteger(Number(u.trim()))) return t.success(Number(u.trim()));
      return t.failure(u, c, "must be an integer");
    },
    (n) => String(n),
  ),
  { type: "integer" },
);

/** A whole number in [min, max], given as a number or (query strings) as a string. */
export const integerBetween = (min: number, max: number) =>
  withSchema(
    new t.Type<number, string, unknown>(
      `Integer(${min}..${max})`,
      (u): u is number => Number.isInteger(u) && (u as number) >= min && (u as number) <= max,
      (u, c) => {
        const parsed = IntegerFromString.validate(u, c);
        if (parsed._tag === "Left") return parsed;
        return parsed.right >= min && parsed.right <= max ? t.success(parsed.right) : t.failure(u, c, `must be between ${min} and ${max}`);
      },
      String,
    ),
    { type: "integer", minimum: min, maximum: max },
  );

/** One of a list of words (`name` names the codec in messages and the API description). */
export const oneOf = <K extends string>(values: readonly K[], name?: string) =>
  t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<K, null>, name);

/** An absolute http(s) URL, without its trailing slashes (a service or provider API's base URL). */
export const HttpUrl = withSchema(
  new t.Type<string, string, unknown>(
    "HttpUrl",
    (u): u is string => typeof u === "string",
    (u, c) => {
      if (typeof u !== "string") return t.failure(u, c, "must be a string");
      try {
        const url = new URL(u.trim());
        if (url.protocol === "http:" || url.protocol === "https:") return t.success(url.toString().replace(/\/+$/, ""));
      } catch {
        // falls through to the failure below
      }
      return t.failure(u, c, "must be an absolute http(s) URL");
    },
    t.identity,
  ),
  { type: "string", format: "uri" },
);

/** `true`/`false` (also 1/0, yes/no) given as a string. */
export const BooleanFromString = withSchema(
  new t.Type<boolean, string, unknown>(
    "BooleanFromString",
    (u): u is boolean => typeof u === "boolean",
    (u, c) => {
      if (typeof u === "boolean") return t.success(u);
      if (typeof u === "string") {
        const v = u.trim().toLowerCase();
        if (["true", "1", "yes"].includes(v)) return t.success(true);
        if (["false", "0", "no", ""].includes(v)) return t.success(false);
      }
      return t.failure(u, c, "must be true or false");
    },
    (b) => String(b),
  ),
  { type: "boolean" },
);

/** An ISO 8601 timestamp, decoded to a Date. */
export const IsoDate = withSchema(
  new t.Type<Date, string, unknown>(
    "IsoDate",
    (u): u is Date => u instanceof Date && !Number.isNaN(u.getTime()),
    (u, c) => {
      if (typeof u !== "string" || !/^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(u)) {
        return t.failure(u, c, "must be an ISO 8601 timestamp");
      }
      const date = new Date(u);
      return Number.isNaN(date.getTime()) ? t.failure(u, c, "must be an ISO 8601 timestamp") : t.success(date);
    },
    (d) => d.toISOString(),
  ),
  { type: "string", format: "date-time" },
);

/** A required field says so when missing (the text codecs alone say "must be a string"). */
export const required = <A, O>(codec: t.Type<A, O, unknown>) =>
  withSchema(
    new t.Type<A, O, unknown>(codec.name, codec.is, (u, c) => (u === undefined ? t.failure(u, c, "is required") : codec.validate(u, c)), codec.encode),
    toJsonSchema(codec),
  );

/** The codec, or null; `schema` describes the codec in the API description when io-ts cannot. */
export const nullable = <C extends t.Mixed>(codec: C, schema?: JsonSchema) => {
  const union = t.union([codec, t.null]);
  return schema ? withSchema(union, { anyOf: [schema, { type: "null" }] }) : union;
};

/** Optional field: absent or undefined decodes to undefined; null is refused unless the codec allows it. */
export const optional = <C extends t.Mixed>(codec: C) => t.union([codec, t.undefined]);

interface Wrapper {
  readonly _tag?: string;
  readonly type?: Wrapper;
}

/** `t.exact` and refinements validate their inner codec in the same context entry. */
function unwrap(type: unknown): Wrapper | undefined {
  let current = type as Wrapper | undefined;
  while (current && (current._tag === "ExactType" || current._tag === "RefinementType" || current._tag === "ReadonlyType")) current = current.type;
  return current;
}

/** The dotted path of a failure, skipping the entries io-ts adds for union and intersection members. */
function pathOf(context: t.Context): string {
  const keys: string[] = [];
  for (let i = 1; i < context.length; i++) {
    const parent = unwrap(context[i - 1]?.type);
    if (parent?._tag === "UnionType" || parent?._tag === "IntersectionType") continue;
    const key = context[i]?.key;
    if (key) keys.push(key);
  }
  return keys.join(".");
}

function messageOf(error: t.ValidationError): string {
  if (error.message) return error.message;
  const expected = error.context[error.context.length - 1]?.type;
  if (error.value === undefined) return "is required";
  if (expected && "keys" in expected && typeof (expected as unknown as { keys: unknown }).keys === "object") {
    const keys = Object.keys((expected as unknown as { keys: Record<string, unknown> }).keys);
    return `must be one of: ${keys.join(", ")}`;
  }
  return `must be ${expected?.name ?? "valid"}`;
}

/** The alternative `optional`/nullable adds to a union: its failure says nothing useful. */
const isFallbackBranch = (error: t.ValidationError): boolean => {
  const tag = (error.context[error.context.length - 1]?.type as { _tag?: string } | undefined)?._tag;
  return tag === "UndefinedType" || tag === "NullType";
};

/**
 * Turns io-ts errors into the spec's `errors: [{path, message}]`: one entry per path, the
 * deepest paths only (a failed union member inside `scopes.1` explains `scopes`), and the
 * real member's message rather than "must be undefined".
 */
export function reportErrors(errors: t.Errors): FieldError[] {
  const entries = errors
    .map((error) => ({ path: pathOf(error.context) || "body", message: messageOf(error), fallback: isFallbackBranch(error) }))
    .sort((a, b) => Number(a.fallback) - Number(b.fallback));
  const byPath = new Map<string, string>();
  for (const entry of entries) {
    const explainedDeeper = entries.some((other) => other.path.startsWith(`${entry.path}.`));
    if (!explainedDeeper && !byPath.has(entry.path)) byPath.set(entry.path, entry.message);
  }
  return [...byPath].map(([path, message]) => ({ path, message }));
}

/** Decodes input with a codec; a failure becomes a 422 `Invalid` error with a readable sentence. */
export function decode<A, O>(codec: t.Type<A, O, unknown>, input: unknown): Result<A> {
  const result = codec.decode(input);
  if (isLeft(result)) {
    const errors = reportErrors(result.left);
    const first = errors[0];
    const sentence = first ? `Invalid request: ${first.path} ${first.message}` : "Invalid request";
    return fail(invalid(errors.length > 1 ? `${sentence} (and ${errors.length - 1} more)` : sentence, errors));
  }
  return ok(result.right);
}
