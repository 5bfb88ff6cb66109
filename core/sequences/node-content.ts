import type { EmailBlock } from "../emails/blocks.js";
import type { EmailContent } from "../emails/model.js";
import { badRequest, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { Sequence, SequenceNode } from "./model.js";

export const NODE_NOT_FOUND = notFound("Sequence node not found");

/** The action_email node of the sequence that a render or test names: 404 when missing, 400 when it is not an email step. */
export function emailNode(sequence: Sequence, nodeId: string): Result<SequenceNode> {
  const node = sequence.graph.nodes.find((candidate) => candidate.id === nodeId);
  if (!node) return fail(NODE_NOT_FOUND);
  if (node.nodeType !== "action_email") return fail(badRequest(`Only action_email steps have an email: node ${nodeId} is a ${node.nodeType}`));
  return ok(node);
}

/** What an email step sends: its subject, preview text and html or blocks. */
export function emailContentOf(node: SequenceNode): EmailContent {
  const config = node.config;
  return {
    subject: String(config.subject),
    previewText: typeof config.previewText === "string" && config.previewText !== "" ? config.previewText : null,
    body: typeof config.html === "string" ? { html: config.html } : { blocks: config.blocks as readonly EmailBlock[] },
  };
}
