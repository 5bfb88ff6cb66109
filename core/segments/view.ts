import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { withSchema } from "../shared/json-schema.js";
import { Id, Timestamp, view } from "../shared/view-fields.js";
import { FILTER_OPERATORS, JOIN_OPERATORS, leavesOf, SEGMENT_FORMATS, SUPPORTED_FIELDS, type FilterGroup, type FilterNode, type Segment } from "./model.js";
import type { SegmentCounts } from "./ports.js";

export const FilterLeafView = view(
  { id: t.string, field: oneOf(SUPPORTED_FIELDS, "FilterField"), operator: oneOf(FILTER_OPERATORS, "FilterOperator"), value: t.string },
  "FilterLeaf",
);
export type FilterLeafView = t.TypeOf<typeof FilterLeafView>;

const isFilterGroup = (u: unknown): u is FilterGroup => typeof u === "object" && u !== null && (u as { kind?: unknown }).kind === "group";

/**
 * The group tree, sent as stored. Recursive, so documented by hand (io-ts cannot describe
 * recursion to JSON Schema); encoding is the identity, so the tree reaches the wire unchanged.
 */
const FilterTreeView = withSchema(
  new t.Type<FilterGroup, FilterGroup, unknown>("FilterTree", isFilterGroup, (u, c) => (isFilterGroup(u) ? t.success(u) : t.failure(u, c)), t.identity),
  {
    type: "object",
    description: "The group tree: {kind:'group', id, joinOperator, children:[leaf {kind:'filter', id, field, operator, value} | group]}",
    properties: {
      kind: { const: "group" },
      id: { type: "string" },
      joinOperator: { type: "string", enum: [...JOIN_OPERATORS] },
      children: { type: "array", items: { type: "object" } },
    },
    required: ["kind", "id", "joinOperator", "children"],
  },
);

/** The segment record of compat-reference §9. */
export const SegmentView = view(
  {
    id: Id,
    name: t.string,
    format: oneOf(SEGMENT_FORMATS, "SegmentFormat"),
    filterJoinOperator: oneOf(JOIN_OPERATORS, "JoinOperator"),
    /** Every leaf, flattened for nested segments. */
    filters: t.readonlyArray(FilterLeafView),
    root: FilterTreeView,
    subscriberCount: t.number,
    activeSubscriberCount: t.number,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "Segment",
);
export type SegmentView = t.TypeOf<typeof SegmentView>;

const leafView = (node: FilterNode): FilterLeafView[] => leavesOf(node).map(({ id, field, operator, value }) => ({ id, field, operator, value }));

export function toSegmentView(segment: Segment, counts: SegmentCounts): SegmentView {
  return {
    id: segment.id,
    name: segment.name,
    format: segment.format,
    filterJoinOperator: segment.root.joinOperator,
    filters: leafView(segment.root),
    root: segment.root,
    subscriberCount: counts.total,
    activeSubscriberCount: counts.active,
    createdAt: segment.createdAt.toISOString(),
    updatedAt: segment.updatedAt.toISOString(),
  };
}
