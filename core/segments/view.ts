import type { FilterGroup, FilterNode, JoinOperator, Segment, SegmentFormat } from "./model.js";
import { leavesOf } from "./model.js";
import type { SegmentCounts } from "./ports.js";

export interface FilterLeafView {
  readonly id: string;
  readonly field: string;
  readonly operator: string;
  readonly value: string;
}

/** The segment record of compat-reference §9. */
export interface SegmentView {
  readonly id: string;
  readonly name: string;
  readonly format: SegmentFormat;
  readonly filterJoinOperator: JoinOperator;
  /** Every leaf, flattened for nested segments. */
  readonly filters: readonly FilterLeafView[];
  readonly root: FilterGroup;
  readonly subscriberCount: number;
  readonly activeSubscriberCount: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

const leafView = (node: FilterNode): FilterLeafView[] =>
  leavesOf(node).map(({ id, field, operator, value }) => ({ id, field, operator, value }));

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
