import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { FilterGroup } from "./model.js";
import type { SegmentEvaluator, SegmentRepository } from "./ports.js";
import { checkReferenceLimits } from "./reference-limits.js";
import { toSegmentView, type SegmentView } from "./view.js";

const NO_COUNTS = { total: 0, active: 0 };

/**
 * Every segment of the company with its counts. A segment whose references are broken (a
 * limit exceeded) is listed with zero counts; its count route explains why.
 */
export class ListSegments {
  constructor(
    private readonly segments: SegmentRepository,
    private readonly evaluator: SegmentEvaluator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor): Promise<Result<SegmentView[]>> => {
    const all = await this.segments.list(actor.companyId);
    // Every reference stays within the company, so its segments are the whole graph.
    const trees: ReadonlyMap<string, FilterGroup> = new Map(all.map((segment) => [segment.id, segment.root]));
    const now = this.clock.now();
    const views: SegmentView[] = [];
    for (const segment of all) {
      const checked = checkReferenceLimits(segment.id, segment.root, trees, "");
      const counts =
        checked._tag === "Left" ? NO_COUNTS : await this.evaluator.count({ companyId: actor.companyId, root: segment.root, referenced: trees, now });
      views.push(toSegmentView(segment, counts));
    }
    return ok(views);
  };
}
