import type { Result } from "../shared/result.js";
import { fail, ok } from "../shared/result.js";
import type { FilterGroup } from "./model.js";
import type { SegmentDefinition, SegmentRepository } from "./ports.js";
import { loadReferencedTrees } from "./reference-graph.js";
import { checkReferenceLimits } from "./reference-limits.js";

/**
 * The evaluable definition of segment `segmentId` with tree `root`: the trees it references,
 * checked against the reference rules (existence, cycles, spec limits). Create, update and
 * count all go through here.
 */
export async function checkedDefinition(
  segments: SegmentRepository,
  input: { companyId: string; segmentId: string; root: FilterGroup; now: Date; docsUrl: string },
): Promise<Result<SegmentDefinition>> {
  const referenced = await loadReferencedTrees(segments, input.companyId, input.root);
  const checked = checkReferenceLimits(input.segmentId, input.root, referenced, input.docsUrl);
  if (checked._tag === "Left") return fail(checked.left);
  return ok({ companyId: input.companyId, root: input.root, referenced, now: input.now });
}
