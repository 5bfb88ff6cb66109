import type { Actor } from "../shared/actor.js";
import { conflict } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { referencesOf } from "./model.js";
import type { SegmentRepository } from "./ports.js";
import { SEGMENT_NOT_FOUND } from "./update-segment.js";

/** Deletes a segment, unless another segment's filters still reference it (they would stop working). */
export class DeleteSegment {
  constructor(private readonly segments: SegmentRepository) {}

  execute = async (actor: Actor, segmentId: string): Promise<Result<{ segmentId: string }>> => {
    const segment = await this.segments.find(actor.companyId, segmentId);
    if (!segment) return fail(SEGMENT_NOT_FOUND);
    const dependents = (await this.segments.list(actor.companyId)).filter((other) => other.id !== segmentId && referencesOf(other.root).includes(segmentId));
    if (dependents.length > 0) {
      return fail(conflict(`Segment is referenced by other segments (${dependents.map((other) => other.id).join(", ")}): remove those references first`));
    }
    if (!(await this.segments.delete(actor.companyId, segmentId))) return fail(SEGMENT_NOT_FOUND);
    return ok({ segmentId });
  };
}
