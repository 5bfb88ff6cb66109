import type { Sequence, SequenceNode } from "./model.js";

/** The node after `node`, leaving by `way` (a condition's yes/no, a branch's path) or by its first edge. */
export function nextNode(sequence: Sequence, node: SequenceNode, way?: string): SequenceNode | undefined {
  const edge = sequence.graph.edges.find((candidate) => candidate.sourceNodeId === node.id && (way === undefined || candidate.condition === way));
  return edge ? sequence.graph.nodes.find((candidate) => candidate.id === edge.targetNodeId) : undefined;
}

/** A stable number 0-99 for this seed at this node: a random split taken again picks the same path. */
function bucket(seed: string, nodeId: string): number {
  let hash = 2166136261;
  for (const char of `${seed}:${nodeId}`) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash % 100;
}

/** The path a contact takes out of a logic_branch: a random split by `seed`, else the first path whose condition it meets, else `else`. */
export async function branchWay(node: SequenceNode, seed: string, meets: (condition: Readonly<Record<string, unknown>>) => Promise<boolean>): Promise<string> {
  const paths = node.config.paths as Array<Record<string, unknown>>;
  if (node.config.splitMode === "random") {
    const percentages = node.config.randomPercentages as number[];
    const roll = bucket(seed, node.id);
    let upTo = 0;
    for (const [index, path] of paths.entries()) {
      upTo += percentages[index] ?? 0;
      if (roll < upTo) return String(path.id);
    }
    return String(paths[paths.length - 1]!.id);
  }
  for (const path of paths) if (await meets(path)) return String(path.id);
  return "else";
}

/** What an action would do, in words (test runs and simulations log actions without applying them). */
export const ACTION_TEXT: Readonly<Record<string, (config: Readonly<Record<string, unknown>>) => string>> = {
  action_add_tag: (config) => `would add tag ${String(config.tagName ?? config.tagId)}`,
  action_remove_tag: (config) => `would remove tag ${String(config.tagName ?? config.tagId)}`,
  action_add_to_list: (config) => `would add the contact to list ${String(config.listName ?? config.listId)}`,
  action_remove_from_list: (config) => `would remove the contact from list ${String(config.listName ?? config.listId)}`,
  action_update_attributes: () => "would update the contact's fields",
  action_webhook: (config) => `would call ${typeof config.method === "string" ? config.method : "POST"} ${String(config.url)}`,
};
