import { badRequest, type DomainError } from "../shared/errors.js";
import { COMPLETION_NODE, TRIGGER_NODE, type Sequence } from "./model.js";

/** Why contacts cannot enter the sequence at `targetNodeId` (null when they can). */
export function targetNodeProblem(sequence: Sequence, targetNodeId: string): DomainError | null {
  const target = sequence.graph.nodes.find((node) => node.id === targetNodeId);
  if (!target) return badRequest(`targetNodeId: the sequence has no node ${targetNodeId}`);
  if (target.nodeType === TRIGGER_NODE || target.nodeType === COMPLETION_NODE)
    return badRequest(`targetNodeId: contacts enter at a step, not at the ${target.nodeType} node`);
  return null;
}
