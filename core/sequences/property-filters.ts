import * as t from "io-ts";
import { boundedText, oneOf, required } from "../shared/codecs.js";

/** An event trigger's `propertyFilters` (compat-reference §10, create body). */
export interface PropertyFilter {
  readonly path: string;
  readonly operator: string;
  readonly value?: unknown;
}

/** One property filter as requests give it: event triggers, waits for an event, stop conditions. */
export const PropertyFilterCodec = t.exact(
  t.intersection([
    t.type({
      path: required(boundedText(255)),
      operator: required(oneOf(["exists", "not_exists", "equals", "not_equals", "one_of", "contains", "greater_than", "less_than"] as const)),
    }),
    t.partial({ value: t.unknown }),
  ]),
  "PropertyFilter",
);

/** The value at a dotted path (`order.total`) of the event's properties. */
export function valueAt(properties: Readonly<Record<string, unknown>>, path: string): unknown {
  let current: unknown = properties;
  for (const key of path.split(".")) {
    if (typeof current !== "object" || current === null || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A value as text for comparisons: objects and arrays as JSON. */
export const asText = (value: unknown): string => (typeof value === "object" && value !== null ? JSON.stringify(value) : String(value));

const same = (a: unknown, b: unknown): boolean => {
  if (typeof a === "number" || typeof b === "number") return Number(a) === Number(b) && a !== null && b !== null && a !== "" && b !== "";
  return asText(a) === asText(b);
};

const numeric = (value: unknown): number | null => {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
};

function matches(properties: Readonly<Record<string, unknown>>, filter: PropertyFilter): boolean {
  const actual = valueAt(properties, filter.path);
  const present = actual !== undefined && actual !== null;
  switch (filter.operator) {
    case "exists":
      return present;
    case "not_exists":
      return !present;
    case "equals":
      return present && same(actual, filter.value);
    case "not_equals":
      return !present || !same(actual, filter.value);
    case "one_of":
      return present && Array.isArray(filter.value) && filter.value.some((value) => same(actual, value));
    case "contains":
      if (Array.isArray(actual)) return actual.some((item) => same(item, filter.value));
      return (
        present &&
        asText(actual)
          .toLowerCase()
          .includes(asText(filter.value ?? "").toLowerCase())
      );
    case "greater_than":
    case "less_than": {
      const a = numeric(actual);
      const b = numeric(filter.value);
      if (a === null || b === null) return false;
      return filter.operator === "greater_than" ? a > b : a < b;
    }
    default:
      return false;
  }
}

/** Whether an event's properties pass every filter (no filter: any event of the name). */
export const passesFilters = (properties: Readonly<Record<string, unknown>>, filters: readonly PropertyFilter[]): boolean =>
  filters.every((filter) => matches(properties, filter));
