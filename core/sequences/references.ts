import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { Sequence } from "./model.js";
import type { References, SequenceRepository } from "./ports.js";

const text = (value: unknown): string[] => (typeof value === "string" ? [value] : []);

/** The lists, segments and tags (by ID) a sequence's trigger and nodes name. */
export function referencesOf(sequence: Pick<Sequence, "triggerConfig" | "graph">): References {
  const listIds = text(sequence.triggerConfig.listId);
  const segmentIds = text(sequence.triggerConfig.segmentId);
  const tagIds: string[] = [];
  const collect = (fields: Readonly<Record<string, unknown>>) => {
    listIds.push(...text(fields.listId));
    segmentIds.push(...text(fields.segmentId));
    tagIds.push(...text(fields.tagId));
  };
  for (const node of sequence.graph.nodes) {
    collect(node.config);
    if (node.nodeType === "logic_branch") for (const path of node.config.paths as ReadonlyArray<Record<string, unknown>>) collect(path);
  }
  const unique = (ids: string[]) => [...new Set(ids)];
  return { listIds: unique(listIds), segmentIds: unique(segmentIds), tagIds: unique(tagIds) };
}

/**
 * A sequence may only name the company's own lists, segments and tags: an unknown ID and another
 * company's get the same answer, so no other company's IDs can be probed.
 */
export async function checkReferences(
  sequences: SequenceRepository,
  companyId: string,
  sequence: Pick<Sequence, "triggerConfig" | "graph">,
): Promise<Result<void>> {
  const references = referencesOf(sequence);
  if (references.listIds.length + references.segmentIds.length + references.tagIds.length === 0) return ok(undefined);
  const unknown = await sequences.unknownReferences(companyId, references);
  if (unknown.listIds.length > 0) return fail(badRequest(`The sequence refers to a list that does not exist: ${unknown.listIds.join(", ")}`));
  if (unknown.segmentIds.length > 0) return fail(badRequest(`The sequence refers to a segment that does not exist: ${unknown.segmentIds.join(", ")}`));
  if (unknown.tagIds.length > 0) return fail(badRequest(`The sequence refers to a tag that does not exist: ${unknown.tagIds.join(", ")}`));
  return ok(undefined);
}
