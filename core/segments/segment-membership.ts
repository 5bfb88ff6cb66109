import type { Clock } from "../ports/clock.js";
import { checkedDefinition } from "./checked-definition.js";
import type { SegmentEvaluator, SegmentRepository } from "./ports.js";

/**
 * Whether one contact is in a segment now (sequence conditions and stop conditions). A segment
 * that is gone, or whose references broke, holds no one.
 */
export class SegmentMembership {
  constructor(
    private readonly segments: SegmentRepository,
    private readonly evaluator: SegmentEvaluator,
    private readonly clock: Clock,
  ) {}

  contains = async (companyId: string, segmentId: string, subscriberId: string): Promise<boolean> => {
    const segment = await this.segments.find(companyId, segmentId);
    if (!segment) return false;
    const definition = await checkedDefinition(this.segments, { companyId, segmentId, root: segment.root, now: this.clock.now(), docsUrl: "" });
    return definition._tag === "Right" && (await this.evaluator.matches(definition.right, subscriberId));
  };
}
