import * as t from "io-ts";
import { arrayOf } from "../emails/blocks.js";
import { boundedText, integerBetween, oneOf, optional, required } from "../shared/codecs.js";
import { withSchema } from "../shared/json-schema.js";

/**
 * Computed lists: per-recipient picks from an array of the campaign's campaignData (products,
 * articles, events), filtered by the item's fields against fixed values or the recipient's own
 * attributes, sorted, and cut to a number of slots. The send, the render, the test send and
 * preview-computed-data resolve them through `resolveComputedLists`, so a preview shows exactly
 * what a recipient gets. Templates read a list's exposures as `computed.{key}`:
 * `{% for item in computed.picks %}{{ item.slot }}. {{ item.name }}{% endfor %}`.
 */

export const COMPUTED_LIST_OPERATORS = ["equals", "not_equals", "in", "not_in", "contains", "greater_than", "less_than", "exists"] as const;
export type ComputedListOperator = (typeof COMPUTED_LIST_OPERATORS)[number];

export const MAX_COMPUTED_LISTS = 10;
export const MAX_CONDITIONS = 10;
export const MAX_SLOTS = 20;
export const DEFAULT_SLOTS = 3;

type Scalar = string | number | boolean | null;

export interface ComputedListCondition {
  /** The item's field (a dotted path for nested fields). */
  readonly field: string;
  readonly operator: ComputedListOperator;
  /** What the field is compared with: a fixed value (an array for `in`/`not_in`)… */
  readonly value?: Scalar | readonly Scalar[];
  /** …or the recipient's value of this merge name (`plan`, `favoriteCategory`, `subscriber.email`). */
  readonly attribute?: string;
}

export interface ComputedList {
  /** The name templates read it by, `computed.{key}`. */
  readonly key: string;
  /** The campaignData key of the array the items come from. */
  readonly source: string;
  /** Every condition must hold. */
  readonly where: readonly ComputedListCondition[];
  readonly sortBy: { readonly field: string; readonly direction: "asc" | "desc" } | null;
  /** How many of the items a recipient is shown (1-20). */
  readonly slots: number;
}

/** One item in the slot it is shown in (from 1). */
export type Exposure = Readonly<Record<string, unknown>> & { readonly slot: number };

export interface ResolvedComputedList {
  readonly key: string;
  /** Every item the recipient qualifies for, in order. */
  readonly items: ReadonlyArray<Readonly<Record<string, unknown>>>;
  /** The items shown: the first `slots` of them. */
  readonly exposures: readonly Exposure[];
}

const KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,49}$/;
const ListKey = withSchema(
  new t.Type<string, string, unknown>(
    "ComputedListKey",
    (u): u is string => typeof u === "string" && KEY_PATTERN.test(u),
    (u, c) =>
      typeof u === "string" && KEY_PATTERN.test(u)
        ? t.success(u)
        : t.failure(u, c, "must be a name of letters, digits and _ (at most 50, not starting with a digit)"),
    t.identity,
  ),
  { type: "string", pattern: KEY_PATTERN.source },
);

const ScalarCodec = t.union([t.string, t.number, t.boolean, t.null], "Scalar");
const Path = boundedText(100);

const ConditionCodec = t.exact(
  t.type({
    field: required(Path),
    operator: oneOf(COMPUTED_LIST_OPERATORS, "ComputedListOperator"),
    value: optional(t.union([ScalarCodec, arrayOf(ScalarCodec, 0, 500, "values")])),
    attribute: optional(Path),
  }),
  "ComputedListCondition",
);

const ListCodec = t.exact(
  t.type({
    key: required(ListKey),
    source: required(boundedText(100)),
    where: optional(arrayOf(ConditionCodec, 0, MAX_CONDITIONS, "conditions")),
    sortBy: optional(t.union([t.null, t.exact(t.type({ field: required(Path), direction: optional(oneOf(["asc", "desc"] as const, "SortDirection")) }))])),
    slots: optional(integerBetween(1, MAX_SLOTS)),
  }),
  "ComputedList",
);

/** A stored list, as `computedListsFrom` made it. */
export const StoredComputedList: t.Type<ComputedList, unknown> = t.type({
  key: t.string,
  source: t.string,
  where: t.readonlyArray(
    t.intersection([
      t.type({ field: t.string, operator: oneOf(COMPUTED_LIST_OPERATORS, "ComputedListOperator") }),
      t.partial({ value: t.union([ScalarCodec, t.readonlyArray(ScalarCodec)]), attribute: t.string }),
    ]),
  ),
  sortBy: t.union([t.null, t.type({ field: t.string, direction: oneOf(["asc", "desc"] as const, "SortDirection") })]),
  slots: t.number,
});

/** `computedLists` of a create or PUT: null or [] clears them. */
export const ComputedListsCodec = t.union([t.null, arrayOf(ListCodec, 0, MAX_COMPUTED_LISTS, "computed lists")]);
export type ComputedListsInput = t.TypeOf<typeof ComputedListsCodec>;

export const computedListsFrom = (input: NonNullable<ComputedListsInput>): ComputedList[] =>
  input.map((list) => ({
    key: list.key,
    source: list.source,
    where: (list.where ?? []).map((condition) => ({
      field: condition.field,
      operator: condition.operator,
      ...(condition.value !== undefined ? { value: condition.value } : {}),
      ...(condition.attribute !== undefined ? { attribute: condition.attribute } : {}),
    })),
    sortBy: list.sortBy ? { field: list.sortBy.field, direction: list.sortBy.direction ?? "asc" } : null,
    slots: list.slots ?? DEFAULT_SLOTS,
  }));

/** What makes the lists unusable with this campaignData (a 400's message), or null. */
export function computedListsProblem(lists: readonly ComputedList[], campaignData: Readonly<Record<string, unknown>>): string | null {
  const keys = new Set<string>();
  for (const [index, list] of lists.entries()) {
    if (keys.has(list.key)) return `computedLists.${index}.key: "${list.key}" is used twice`;
    keys.add(list.key);
    if (!Array.isArray(campaignData[list.source])) return `computedLists.${index}.source: campaignData has no array "${list.source}"`;
    for (const [n, condition] of list.where.entries()) {
      const at = `computedLists.${index}.where.${n}`;
      const given = (condition.value !== undefined ? 1 : 0) + (condition.attribute !== undefined ? 1 : 0);
      if (condition.operator === "exists") {
        if (given > 0) return `${at}: exists takes neither value nor attribute`;
      } else if (given !== 1) return `${at}: give either value or attribute`;
      const many = condition.operator === "in" || condition.operator === "not_in";
      if (condition.value !== undefined && many !== Array.isArray(condition.value))
        return `${at}.value: ${many ? "must be an array" : "must not be an array"} for ${condition.operator}`;
    }
  }
  return null;
}

const valueAt = (from: unknown, path: string): unknown => {
  let current = from;
  for (const part of path.split(".")) {
    if (current === null || typeof current !== "object" || Array.isArray(current)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
};

const hasValue = (value: unknown): boolean => value !== undefined && value !== null && value !== "";

/** A scalar's text; null for anything else. */
const textOf = (value: unknown): string | null => (typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : null);

/** Scalars compare by their text, so `42` matches `"42"` (attributes imported from CSV are text). */
const same = (a: unknown, b: unknown): boolean => {
  const text = textOf(a);
  return text !== null && text !== "" && text === textOf(b);
};

const asNumber = (value: unknown): number | null => {
  if (!hasValue(value) || typeof value === "object" || typeof value === "boolean") return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
};

function holds(condition: ComputedListCondition, item: unknown, recipient: Readonly<Record<string, unknown>>): boolean {
  const field = valueAt(item, condition.field);
  if (condition.operator === "exists") return hasValue(field);
  const against = condition.attribute !== undefined ? valueAt(recipient, condition.attribute) : condition.value;
  // A value the recipient lacks matches nothing: only the negative operators hold.
  const values = Array.isArray(against) ? (against as unknown[]) : hasValue(against) ? [against] : [];
  switch (condition.operator) {
    case "equals":
      return values.length === 1 && same(field, values[0]);
    case "not_equals":
      return !(values.length === 1 && same(field, values[0]));
    case "in":
      return values.some((value) => same(field, value));
    case "not_in":
      return !values.some((value) => same(field, value));
    case "contains":
      return (
        values.length === 1 &&
        (Array.isArray(field)
          ? field.some((entry) => same(entry, values[0]))
          : typeof field === "string" && field.toLowerCase().includes((textOf(values[0]) ?? "").toLowerCase()))
      );
    case "greater_than":
    case "less_than": {
      const left = asNumber(field);
      const right = values.length === 1 ? asNumber(values[0]) : null;
      if (left === null || right === null) return false;
      return condition.operator === "greater_than" ? left > right : left < right;
    }
  }
}

function compare(a: unknown, b: unknown): number {
  const [x, y] = [asNumber(a), asNumber(b)];
  if (x !== null && y !== null) return x - y;
  return (textOf(a) ?? "").localeCompare(textOf(b) ?? "");
}

/** The lists for one recipient, from the campaign's data and the recipient's merge values. */
export function resolveComputedLists(
  lists: readonly ComputedList[],
  campaignData: Readonly<Record<string, unknown>>,
  recipient: Readonly<Record<string, unknown>>,
): ResolvedComputedList[] {
  return lists.map((list) => {
    const source = campaignData[list.source];
    const candidates = (Array.isArray(source) ? source : []).filter(
      (item): item is Record<string, unknown> => item !== null && typeof item === "object" && !Array.isArray(item),
    );
    const items = candidates.filter((item) => list.where.every((condition) => holds(condition, item, recipient)));
    if (list.sortBy) {
      const { field, direction } = list.sortBy;
      // Stable, with items lacking the field last whichever the direction.
      items.sort((a, b) => {
        const [x, y] = [valueAt(a, field), valueAt(b, field)];
        if (!hasValue(x) || !hasValue(y)) return Number(!hasValue(x)) - Number(!hasValue(y));
        return direction === "asc" ? compare(x, y) : compare(y, x);
      });
    }
    return { key: list.key, items, exposures: items.slice(0, list.slots).map((item, index) => ({ ...item, slot: index + 1 })) };
  });
}
