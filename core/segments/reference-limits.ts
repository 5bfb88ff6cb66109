import { badRequest, type DomainError } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { referencesOf, type FilterGroup } from "./model.js";

/** Spec, Limits: segment references go 16 levels deep and number 1,000 in total. */
export const MAX_REFERENCE_DEPTH = 16;
export const MAX_REFERENCES = 1000;

export const SEGMENT_REFERENCE_DEPTH_EXCEEDED = "SEGMENT_REFERENCE_DEPTH_EXCEEDED";
export const SEGMENT_REFERENCE_COUNT_EXCEEDED = "SEGMENT_REFERENCE_COUNT_EXCEEDED";

const LIMITS = {
  depth: {
    code: SEGMENT_REFERENCE_DEPTH_EXCEEDED,
    title: "Segment reference depth exceeded",
    message: `Segment filters follow a chain of more than ${MAX_REFERENCE_DEPTH} segment-to-segment references`,
    howToFix:
      `Keep chains of segments that reference segments at most ${MAX_REFERENCE_DEPTH} levels deep: copy the conditions of a deeply nested ` +
      "segment into the segment that references it, or reference a segment nearer the end of the chain.",
  },
  total: {
    code: SEGMENT_REFERENCE_COUNT_EXCEEDED,
    title: "Too many segment references",
    message: `Segment filters make more than ${MAX_REFERENCES.toLocaleString("en-US")} segment references in total, counting a segment each time it is referenced`,
    howToFix:
      `Keep the references under ${MAX_REFERENCES.toLocaleString("en-US")} in total: remove repeated references to the same segment, or reference ` +
      "one segment that already combines the others instead of each of them.",
  },
} as const;

function limitError(limit: "depth" | "total", segmentId: string, referenceChain: readonly string[], docsUrl: string): DomainError {
  const { code, title, message, howToFix } = LIMITS[limit];
  return badRequest(message, {
    code,
    extra: {
      title,
      description: message,
      howToFix,
      docsUrl,
      details: { limit, segmentId, referenceChain: [...referenceChain], maxDepth: MAX_REFERENCE_DEPTH, maxReferences: MAX_REFERENCES },
    },
  });
}

/**
 * Walks the references of segment `segmentId` (whose tree is `root`) depth first, counting a
 * segment each time it is referenced, and stops at the first broken rule: a reference to a
 * missing segment or back into the chain (a cycle), more than 1,000 references in total, or a
 * chain more than 16 levels deep. Groups nested inside one segment do not count. The
 * reference chain in the error lists segment IDs outermost first, without `segmentId` itself.
 */
export function checkReferenceLimits(segmentId: string, root: FilterGroup, trees: ReadonlyMap<string, FilterGroup>, docsUrl: string): Result<void> {
  let total = 0;
  const visit = (tree: FilterGroup, chain: readonly string[]): DomainError | null => {
    for (const reference of referencesOf(tree)) {
      const path = [...chain, reference];
      if (reference === segmentId) {
        return badRequest(
          chain.length === 0
            ? "A segment cannot reference itself"
            : `Segment filters cannot reference a segment that references this segment back (${[segmentId, ...path].join(" -> ")})`,
        );
      }
      if (chain.includes(reference)) return badRequest(`Segment filters contain a reference cycle (${path.join(" -> ")})`);
      const target = trees.get(reference);
      if (!target) return badRequest(`Segment filters reference a segment that does not exist: ${reference}`);
      total += 1;
      if (total > MAX_REFERENCES) return limitError("total", segmentId, path, docsUrl);
      if (path.length > MAX_REFERENCE_DEPTH) return limitError("depth", segmentId, path, docsUrl);
      const error = visit(target, path);
      if (error) return error;
    }
    return null;
  };
  const error = visit(root, []);
  return error ? fail(error) : ok(undefined);
}
