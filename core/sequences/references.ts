import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { Sequence } from "./model.js";
import type { References, SequenceRepository } from "./ports.js";

const text = (value: unknown): string[] => (typeof value === "string" ? [value] : []);

type Referring = Pick<Sequence, "triggerConfig" | "graph" | "senderProfileId" | "replyProfileId">;

/** The lists, segments, tags and sender and reply profiles (by ID) a sequence's settings and nodes name. */
export function referencesOf(sequence: Referring): References {
  const listIds = text(sequence.triggerConfig.listId);
  const segmentIds = text(sequence.triggerConfig.segmentId);
  const tagIds: string[] = [];
  const senderProfileIds = text(sequence.senderProfileId);
  const replyProfileIds = text(sequence.replyProfileId);
  const collect = (fields: Readonly<Record<string, unknown>>) => {
    listIds.push(...text(fields.listId));
    segmentIds.push(...text(fields.segmentId));
    tagIds.push(...text(fields.tagId));
    senderProfileIds.push(...text(fields.senderProfileId));
    replyProfileIds.push(...text(fields.replyProfileId));
  };
  for (const node of sequence.graph.nodes) {
    collect(node.config);
    if (node.nodeType === "logic_branch") for (const path of node.config.paths as ReadonlyArray<Record<string, unknown>>) collect(path);
  }
  const unique = (ids: string[]) => [...new Set(ids)];
  return {
    listIds: unique(listIds),
    segmentIds: unique(segmentIds),
    tagIds: unique(tagIds),
    senderProfileIds: unique(senderProfileIds),
    replyProfileIds: unique(replyProfileIds),
  };
}

/**
 * A sequence may only name the company's own lists, segments and tags: an unknown ID and another
 * company's get the same answer, so no other company's IDs can be probed.
 */
const NOUNS: Record<keyof References, string> = {
  listIds: "a list",
  segmentIds: "a segment",
  tagIds: "a tag",
  senderProfileIds: "a sender profile",
  replyProfileIds: "a reply profile",
};

export async function checkReferences(sequences: SequenceRepository, companyId: string, sequence: Referring): Promise<Result<void>> {
  const references = referencesOf(sequence);
  if (Object.values(references).every((ids: readonly string[]) => ids.length === 0)) return ok(undefined);
  const unknown = await sequences.unknownReferences(companyId, references);
  for (const kind of Object.keys(NOUNS) as Array<keyof References>)
    if (unknown[kind].length > 0) return fail(badRequest(`The sequence refers to ${NOUNS[kind]} that does not exist: ${unknown[kind].join(", ")}`));
  return ok(undefined);
}
