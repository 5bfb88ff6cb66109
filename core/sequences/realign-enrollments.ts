import type { Relocation } from "./enrollment-ports.js";
import { COMPLETION_NODE, type SequenceGraph } from "./model.js";

/**
 * Where the contacts at nodes a graph edit removed go, so no run is left on a node that no
 * longer exists. A removed node's place is taken by whatever the edge that led into it now leads
 * to (the node after it, or the way a deleted condition or branch kept): its contacts go on
 * there at once, or end `completed` when that is the completion node. Contacts on steps that
 * only a removed path reached have nowhere to go on: their runs end `completed` too.
 */
export function realignmentAfterEdit(before: SequenceGraph, after: SequenceGraph): Relocation[] {
  const kept = new Map(after.nodes.map((node) => [node.id, node]));
  const completion = after.nodes.find((node) => node.nodeType === COMPLETION_NODE)!;
  const destinations = new Map<string, string[]>();
  for (const removed of before.nodes.filter((node) => !kept.has(node.id))) {
    const into = before.edges.find((edge) => edge.targetNodeId === removed.id && kept.has(edge.sourceNodeId));
    const now = into && after.edges.find((edge) => edge.sourceNodeId === into.sourceNodeId && edge.condition === into.condition);
    const destination = now && kept.has(now.targetNodeId) ? now.targetNodeId : completion.id;
    destinations.set(destination, [...(destinations.get(destination) ?? []), removed.id]);
  }
  return [...destinations].map(([toNodeId, fromNodeIds]) => ({ fromNodeIds, toNodeId, completes: toNodeId === completion.id }));
}
