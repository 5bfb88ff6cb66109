import type { FieldError } from "./errors.js";

/** Deepest nesting of objects and arrays a request may carry (the README's Limits table). */
export const MAX_INPUT_DEPTH = 32;
/**
 * Keys that could poison an object's prototype when a value is merged into another: refused
 * wherever they appear in a request, so no later merge (attributes, settings) ever sees one.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a text cannot be stored alike on both dialects (Postgres refuses NUL; neither stores a lone surrogate faithfully). */
export function unsafeTextReason(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain NUL characters";
  if (LONE_SURROGATE.test(text)) return "must not contain unpaired surrogate characters (invalid Unicode)";
  return null;
}

const join = (path: string, key: string | number): string => (path === "" ? String(key) : `${path}.${key}`);

/**
 * The first way a request's input breaks the bounds every route shares: nesting deeper than
 * MAX_INPUT_DEPTH, a forbidden key, or text with NUL or unpaired surrogates (in values and
 * keys). Walks without recursion, so a hostile depth cannot overflow the stack.
 */
export function inputBoundsViolation(input: unknown, root = ""): FieldError | null {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [{ value: input, path: root, depth: 0 }];
  while (pending.length > 0) {
    const { value, path, depth } = pending.pop()!;
    if (typeof value === "string") {
      const reason = unsafeTextReason(value);
      if (reason) return { path: path || "body", message: reason };
      continue;
    }
    if (value === null || typeof value !== "object") continue;
    if (depth >= MAX_INPUT_DEPTH) return { path: path || "body", message: `must not nest objects or arrays more than ${MAX_INPUT_DEPTH} levels deep` };
    if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push({ value: item, path: join(path, index), depth: depth + 1 }));
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      const keyPath = join(path, key);
      if (FORBIDDEN_KEYS.has(key)) return { path: keyPath, message: `"${key}" is not allowed as a field name` };
      const reason = unsafeTextReason(key);
      if (reason) return { path: path || "body", message: `field names ${reason}` };
      pending.push({ value: item, path: keyPath, depth: depth + 1 });
    }
  }
  return null;
}
