import type { FilterGroup, Segment } from "./model.js";
import { token } from "../shared/token.js";

/** A company's segments. Every method names the company. */
export interface SegmentRepository {
  insert(segment: Segment): Promise<void>;
  /** Saves name, format and tree; false when the segment is not the company's. */
  update(segment: Segment): Promise<boolean>;
  delete(companyId: string, segmentId: string): Promise<boolean>;
  find(companyId: string, segmentId: string): Promise<Segment | null>;
  /** Oldest first. */
  list(companyId: string): Promise<Segment[]>;
  /** The company's segments among `segmentIds` (others' and missing IDs are left out). */
  findMany(companyId: string, segmentIds: readonly string[]): Promise<Segment[]>;
  /** The company's lists among `listIds` (others' and missing IDs are left out). */
  ownedListIds(companyId: string, listIds: readonly string[]): Promise<string[]>;
}
export const SegmentRepository = token<SegmentRepository>("lifecycle.SegmentRepository");

export interface SegmentCounts {
  /** Matching contacts, any status. */
  readonly total: number;
  /** Matching contacts whose status is `active`. */
  readonly active: number;
}

/** What a segment evaluation needs: the tree and the trees of every segment it reaches. */
export interface SegmentDefinition {
  readonly companyId: string;
  readonly root: FilterGroup;
  /** Trees of the segments the root references, directly or not, by ID (already checked: no cycles, within limits). */
  readonly referenced: ReadonlyMap<string, FilterGroup>;
  /** Relative dates and event windows are measured from here. */
  readonly now: Date;
}

/** Counts the contacts a segment matches, in one database query. */
export interface SegmentEvaluator {
  count(definition: SegmentDefinition): Promise<SegmentCounts>;
  /** Whether the segment matches this one contact of its company. */
  matches(definition: SegmentDefinition, subscriberId: string): Promise<boolean>;
}
export const SegmentEvaluator = token<SegmentEvaluator>("lifecycle.SegmentEvaluator");
