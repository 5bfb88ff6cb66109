import * as t from "io-ts";
import { withSchema } from "./json-schema.js";
import { FORBIDDEN_KEYS } from "./input-bounds.js";

/** How big a JSON object of free-form fields (custom attributes, event properties) may be. */
export interface JsonObjectLimits {
  readonly maxKeys: number;
  readonly maxKeyLength: number;
  /** Characters of one value written as JSON. */
  readonly maxValueLength: number;
  /** Levels of objects and arrays inside one value. */
  readonly maxDepth: number;
}

/** Custom attributes of a contact (the README's Limits table). */
export const ATTRIBUTE_LIMITS: JsonObjectLimits = { maxKeys: 100, maxKeyLength: 100, maxValueLength: 10_000, maxDepth: 8 };
/** Properties of one event. */
export const PROPERTY_LIMITS: JsonObjectLimits = { maxKeys: 200, maxKeyLength: 100, maxValueLength: 10_000, maxDepth: 8 };

function depthOf(value: unknown): number {
  let deepest = 0;
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (current === null || typeof current !== "object") continue;
    deepest = Math.max(deepest, depth + 1);
    for (const item of Object.values(current)) pending.push([item, depth + 1]);
  }
  return deepest;
}

/** Why one field breaks the limits (null when it keeps them). */
function fieldViolation(key: string, value: unknown, limits: JsonObjectLimits): string | null {
  if (key.trim() === "") return "field names must not be blank";
  if (key.length > limits.maxKeyLength) return `field names must be at most ${limits.maxKeyLength} characters`;
  if (FORBIDDEN_KEYS.has(key)) return `"${key}" is not allowed as a field name`;
  if (depthOf(value) > limits.maxDepth) return `must not nest objects or arrays more than ${limits.maxDepth} levels deep`;
  if ((JSON.stringify(value) ?? "").length > limits.maxValueLength) return `must be at most ${limits.maxValueLength} characters as JSON`;
  return null;
}

/** A JSON object (not an array, not null) within `limits`; a failure names the field that breaks them. */
export const boundedJsonObject = (limits: JsonObjectLimits, name: string) =>
  withSchema(
    new t.Type<Record<string, unknown>, Record<string, unknown>, unknown>(
      name,
      (u): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u),
      (u, c) => {
        if (typeof u !== "object" || u === null || Array.isArray(u)) return t.failure(u, c, "must be a JSON object");
        const entries = Object.entries(u);
        if (entries.length > limits.maxKeys) return t.failure(u, c, `must have at most ${limits.maxKeys} fields`);
        for (const [key, value] of entries) {
          const violation = fieldViolation(key, value, limits);
          if (violation) return t.failure(value, [...c, { key, type: t.unknown, actual: value }], violation);
        }
        return t.success(u as Record<string, unknown>);
      },
      t.identity,
    ),
    { type: "object", additionalProperties: true, maxProperties: limits.maxKeys },
  );
