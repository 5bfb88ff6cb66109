import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { listIdsOf, type FilterGroup } from "./model.js";
import type { SegmentRepository } from "./ports.js";

/**
 * A segment may only name the company's own lists: an unknown or another company's list ID is
 * refused when the segment is written (it would silently match nobody), with the same answer
 * for both so no other company's IDs can be probed.
 */
export async function checkOwnedLists(segments: SegmentRepository, companyId: string, root: FilterGroup): Promise<Result<void>> {
  const named = listIdsOf(root);
  if (named.length === 0) return ok(undefined);
  const owned = new Set(await segments.ownedListIds(companyId, named));
  const unknown = named.filter((id) => !owned.has(id));
  return unknown.length === 0 ? ok(undefined) : fail(badRequest(`Segment filters reference a list that does not exist: ${unknown.join(", ")}`));
}
