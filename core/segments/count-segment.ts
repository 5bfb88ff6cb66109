import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { checkedDefinition } from "./checked-definition.js";
import type { SegmentEvaluator, SegmentRepository } from "./ports.js";
import { SEGMENT_NOT_FOUND } from "./update-segment.js";

/** How many contacts (any status) a segment matches now, in one query. */
export class CountSegment {
  constructor(
    private readonly segments: SegmentRepository,
    private readonly evaluator: SegmentEvaluator,
    private readonly clock: Clock,
    private readonly docsUrl: string,
  ) {}

  execute = async (actor: Actor, segmentId: string): Promise<Result<{ count: number; segmentId: string }>> => {
    const segment = await this.segments.find(actor.companyId, segmentId);
    if (!segment) return fail(SEGMENT_NOT_FOUND);
    const definition = await checkedDefinition(this.segments, {
      companyId: actor.companyId,
      segmentId,
      root: segment.root,
      now: this.clock.now(),
      docsUrl: this.docsUrl,
    });
    if (definition._tag === "Left") return definition;
    const counts = await this.evaluator.count(definition.right);
    return ok({ count: counts.total, segmentId });
  };
}
