import type { ListRepository } from "../lists/ports.js";
import { loadReferencedTrees } from "../segments/reference-graph.js";
import type { SegmentRepository } from "../segments/ports.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { normalizeTagName } from "../tags/model.js";
import type { TagRepository } from "../tags/ports.js";
import type { Audience } from "./audience-enrollment.js";
import type { AudienceSelection } from "./audience-enrollment-ports.js";

export interface AudienceLookups {
  readonly lists: ListRepository;
  readonly segments: SegmentRepository;
  readonly tags: TagRepository;
}

/**
 * What the database reads for an audience, checked against the company's records: a list,
 * segment or tag that is not the company's (or no longer exists) is 404. A segment is read as
 * it is now, so each batch sees the segment's current definition.
 */
export async function selectionOf(lookups: AudienceLookups, companyId: string, audience: Audience, now: Date): Promise<Result<AudienceSelection>> {
  switch (audience.type) {
    case "all":
      return ok({ type: "all", companyId });
    case "list":
      if (!(await lookups.lists.find(companyId, audience.listId))) return fail(notFound("List not found"));
      return ok({ type: "list", companyId, listId: audience.listId });
    case "tag": {
      const tagName = normalizeTagName(audience.tag);
      const [tag] = tagName === "" ? [] : await lookups.tags.findByNames(companyId, [tagName]);
      if (!tag) return fail(notFound("Tag not found"));
      return ok({ type: "tag", companyId, tagName: tag.name });
    }
    case "segment": {
      const segment = await lookups.segments.find(companyId, audience.segmentId);
      if (!segment) return fail(notFound("Segment not found"));
      const referenced = await loadReferencedTrees(lookups.segments, companyId, segment.root);
      return ok({ type: "segment", companyId, definition: { companyId, root: segment.root, referenced, now } });
    }
  }
}

/** The audience as stored: a tag by its normalised name. */
export const storedAudience = (audience: Audience): Audience => (audience.type === "tag" ? { type: "tag", tag: normalizeTagName(audience.tag) } : audience);
