import { referencesOf, type FilterGroup } from "./model.js";
import type { SegmentRepository } from "./ports.js";
import { MAX_REFERENCE_DEPTH } from "./reference-limits.js";

/**
 * The trees of the company's segments that `root` reaches, loaded level by level (one query per
 * level). Levels past the depth limit are not needed: the limit check stops there.
 */
export async function loadReferencedTrees(segments: SegmentRepository, companyId: string, root: FilterGroup): Promise<Map<string, FilterGroup>> {
  const trees = new Map<string, FilterGroup>();
  const seen = new Set<string>();
  let frontier = [...new Set(referencesOf(root))];
  for (let level = 1; level <= MAX_REFERENCE_DEPTH + 1 && frontier.length > 0; level += 1) {
    for (const id of frontier) seen.add(id);
    const found = await segments.findMany(companyId, frontier);
    const next = new Set<string>();
    for (const segment of found) {
      trees.set(segment.id, segment.root);
      for (const reference of referencesOf(segment.root)) if (!seen.has(reference)) next.add(reference);
    }
    frontier = [...next];
  }
  return trees;
}
