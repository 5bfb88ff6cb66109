import * as t from "io-ts";
import { boundedText, oneOf, optional } from "../shared/codecs.js";
import { withSchema } from "../shared/json-schema.js";
import {
  FILTER_FIELDS,
  FILTER_OPERATORS,
  JOIN_OPERATORS,
  SUPPORTED_FIELDS,
  type FilterGroup,
  type FilterGroupInput,
  type FilterLeafInput,
  type FilterNode,
  type FilterNodeInput,
} from "./model.js";

export const FilterFieldCodec = oneOf(FILTER_FIELDS, "FilterField");
export const FilterOperatorCodec = oneOf(FILTER_OPERATORS, "FilterOperator");
export const JoinOperatorCodec = oneOf(JOIN_OPERATORS, "JoinOperator");

export const SegmentName = boundedText(255);
const FilterId = boundedText(255);

/** Characters of one filter value (the README's Limits table): longer ones are no use in a condition and costly to match. */
export const MAX_FILTER_VALUE_LENGTH = 1_000;

/** A filter value: a string (trimmed); numbers and booleans become strings, null becomes "". */
const FilterValue = withSchema(
  new t.Type<string, string, unknown>(
    "FilterValue",
    (u): u is string => typeof u === "string",
    (u, c) =>
      typeof u === "string"
        ? u.trim().length > MAX_FILTER_VALUE_LENGTH
          ? t.failure(u, c, `must be at most ${MAX_FILTER_VALUE_LENGTH} characters`)
          : t.success(u.trim())
        : typeof u === "number" || typeof u === "boolean"
          ? t.success(String(u))
          : u === null
            ? t.success("")
            : t.failure(u, c, "must be a string"),
    t.identity,
  ),
  { type: ["string", "number", "boolean", "null"] },
);

const leafSchema = {
  type: "object",
  properties: {
    kind: { const: "filter" },
    id: { type: "string" },
    field: { type: "string", enum: [...FILTER_FIELDS] },
    operator: { type: "string", enum: [...FILTER_OPERATORS] },
    value: { type: ["string", "number", "boolean", "null"], maxLength: MAX_FILTER_VALUE_LENGTH },
  },
  required: ["field", "operator"],
};

const groupSchema = {
  type: "object",
  description: "A group of conditions; children are filter leaves or nested groups",
  properties: {
    kind: { const: "group" },
    id: { type: "string" },
    joinOperator: { type: "string", enum: [...JOIN_OPERATORS] },
    children: { type: "array", minItems: 1, items: { anyOf: [leafSchema, { type: "object", properties: { kind: { const: "group" } }, required: ["kind"] }] } },
  },
  required: ["kind", "joinOperator", "children"],
};

export const FilterLeafCodec = withSchema(
  t.exact(
    t.intersection([
      t.type({ field: FilterFieldCodec, operator: FilterOperatorCodec }),
      t.partial({ kind: optional(t.literal("filter")), id: optional(FilterId), value: optional(FilterValue) }),
    ]),
    "FilterLeaf",
  ),
  leafSchema,
) as unknown as t.Type<FilterLeafInput, unknown, unknown>;

/**
 * A node is a group when it says `kind: "group"` (or has children), a leaf otherwise: deciding
 * first keeps the 422 messages about the branch the caller meant.
 */
export const FilterNodeCodec: t.Type<FilterNodeInput, unknown, unknown> = withSchema(
  new t.Type<FilterNodeInput, unknown, unknown>(
    "FilterNode",
    (u): u is FilterNodeInput => FilterGroupCodec.is(u) || FilterLeafCodec.is(u),
    (u, c) => {
      const looksLikeGroup = typeof u === "object" && u !== null && ((u as { kind?: unknown }).kind === "group" || "children" in u);
      // FilterGroupCodec is read at decode time, after this module has loaded: the codecs refer to each other.
      return looksLikeGroup ? FilterGroupCodec.validate(u, c) : FilterLeafCodec.validate(u, c);
    },
    t.identity,
  ),
  { anyOf: [leafSchema, groupSchema] },
);

export const FilterGroupCodec: t.Type<FilterGroupInput, unknown, unknown> = withSchema(
  t.exact(
    t.intersection([
      t.type({ kind: t.literal("group"), joinOperator: JoinOperatorCodec, children: t.array(FilterNodeCodec) }),
      t.partial({ id: optional(FilterId) }),
    ]),
    "FilterGroup",
  ),
  groupSchema,
) as unknown as t.Type<FilterGroupInput, unknown, unknown>;

/** POST /segments: a name and exactly one of `filters` (with `filterJoinOperator`) or `root`. */
export const CreateSegmentCommand = t.exact(
  t.intersection([
    t.type({ name: SegmentName }),
    t.partial({
      filters: optional(t.array(FilterLeafCodec)),
      filterJoinOperator: optional(JoinOperatorCodec),
      root: optional(FilterGroupCodec),
    }),
  ]),
  "CreateSegmentCommand",
);
export type CreateSegmentCommand = t.TypeOf<typeof CreateSegmentCommand>;

/** PATCH /segments/{id}: any of the fields; `filters` or `root` replace the rules. */
export const UpdateSegmentCommand = t.exact(
  t.partial({
    name: optional(SegmentName),
    filters: optional(t.array(FilterLeafCodec)),
    filterJoinOperator: optional(JoinOperatorCodec),
    root: optional(FilterGroupCodec),
  }),
  "UpdateSegmentCommand",
);
export type UpdateSegmentCommand = t.TypeOf<typeof UpdateSegmentCommand>;

/** A stored tree, as the repository reads it back (every node has its ID; only supported fields). */
const StoredLeaf = t.type({
  kind: t.literal("filter"),
  id: t.string,
  field: oneOf(SUPPORTED_FIELDS, "SupportedField"),
  operator: FilterOperatorCodec,
  value: t.string,
});
export const StoredFilterGroup: t.Type<FilterGroup, unknown, unknown> = t.recursion("StoredFilterGroup", () =>
  t.readonly(
    t.type({
      kind: t.literal("group"),
      id: t.string,
      joinOperator: JoinOperatorCodec,
      children: t.readonlyArray(t.union([StoredLeaf, StoredFilterGroup]) as t.Type<FilterNode, unknown, unknown>),
    }),
  ),
);
