import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { COMPLETION_NODE, MAX_GRAPH_EDGES, MAX_GRAPH_NODES, TRIGGER_NODE, type SequenceEdge, type SequenceGraph, type SequenceNode } from "./model.js";

/**
 * The rules a sequence graph keeps as a whole, checked after every edit before anything is
 * stored: one trigger and one completion node, edges between existing nodes, the right ways out
 * of each node, every node reachable from the trigger, and no loop a contact could run round
 * without waiting (every cycle passes through a `logic_delay`).
 */

const invalidGraph = (reason: string) => fail(badRequest(`Invalid sequence graph: ${reason}`));

/** The conditions of the edges that must leave `node`: one plain edge, or one per way out of a logic node. */
export function exitsOf(node: SequenceNode): readonly (string | undefined)[] {
  switch (node.nodeType) {
    case COMPLETION_NODE:
      return [];
    case "logic_condition":
      return ["yes", "no"];
    case "logic_branch": {
      const paths = (node.config.paths as ReadonlyArray<{ id: string }>).map((path) => path.id);
      return node.config.splitMode === "random" ? paths : [...paths, "else"];
    }
    default:
      return [undefined];
  }
}

/** Edges leading every way out of `node` to `targetNodeId`. */
export const exitEdges = (node: SequenceNode, targetNodeId: string): SequenceEdge[] =>
  exitsOf(node).map((condition) => ({ sourceNodeId: node.id, targetNodeId, ...(condition !== undefined ? { condition } : {}) }));

/** Edges taking `chain` one after the other (every way out of each to the next), the last to `targetNodeId`. */
export const chainEdges = (chain: readonly SequenceNode[], targetNodeId: string): SequenceEdge[] =>
  chain.flatMap((node, index) => exitEdges(node, chain[index + 1]?.id ?? targetNodeId));

const describeExit = (condition: string | undefined) => (condition === undefined ? "one edge without a condition" : `an edge with condition '${condition}'`);

export const outgoing = (graph: SequenceGraph, nodeId: string): SequenceEdge[] => graph.edges.filter((edge) => edge.sourceNodeId === nodeId);

/** IDs of the nodes reachable from `start` (itself included). */
export function reachableFrom(graph: SequenceGraph, start: string): Set<string> {
  const seen = new Set([start]);
  const pending = [start];
  while (pending.length > 0) {
    const current = pending.pop()!;
    for (const edge of graph.edges) {
      if (edge.sourceNodeId === current && !seen.has(edge.targetNodeId)) {
        seen.add(edge.targetNodeId);
        pending.push(edge.targetNodeId);
      }
    }
  }
  return seen;
}

/** A node on a cycle that has no delay on it, or null. Iterative colouring DFS over the nodes that are not delays. */
function cycleWithoutDelay(graph: SequenceGraph): string | null {
  const delays = new Set(graph.nodes.filter((node) => node.nodeType === "logic_delay").map((node) => node.id));
  const next = new Map<string, string[]>();
  for (const edge of graph.edges) {
    if (delays.has(edge.sourceNodeId) || delays.has(edge.targetNodeId)) continue;
    next.set(edge.sourceNodeId, [...(next.get(edge.sourceNodeId) ?? []), edge.targetNodeId]);
  }
  const state = new Map<string, "open" | "done">();
  for (const root of graph.nodes) {
    if (state.has(root.id) || delays.has(root.id)) continue;
    const stack: Array<{ id: string; index: number }> = [{ id: root.id, index: 0 }];
    state.set(root.id, "open");
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const targets = next.get(frame.id) ?? [];
      if (frame.index >= targets.length) {
        state.set(frame.id, "done");
        stack.pop();
        continue;
      }
      const target = targets[frame.index++]!;
      const seen = state.get(target);
      if (seen === "open") return target;
      if (seen === undefined) {
        state.set(target, "open");
        stack.push({ id: target, index: 0 });
      }
    }
  }
  return null;
}

export function validateGraph(graph: SequenceGraph): Result<void> {
  if (graph.nodes.length > MAX_GRAPH_NODES) return invalidGraph(`a sequence has at most ${MAX_GRAPH_NODES} nodes (this one would have ${graph.nodes.length})`);
  if (graph.edges.length > MAX_GRAPH_EDGES) return invalidGraph(`a sequence has at most ${MAX_GRAPH_EDGES} edges (this one would have ${graph.edges.length})`);
  const byId = new Map<string, SequenceNode>();
  for (const node of graph.nodes) {
    if (byId.has(node.id)) return invalidGraph(`node ID '${node.id}' is used twice`);
    byId.set(node.id, node);
  }
  const triggers = graph.nodes.filter((node) => node.nodeType === TRIGGER_NODE);
  const completions = graph.nodes.filter((node) => node.nodeType === COMPLETION_NODE);
  if (triggers.length !== 1) return invalidGraph(`a sequence has exactly one trigger node (found ${triggers.length})`);
  if (completions.length !== 1) return invalidGraph(`a sequence has exactly one completion node (found ${completions.length})`);
  const trigger = triggers[0]!;

  for (const edge of graph.edges) {
    for (const end of [edge.sourceNodeId, edge.targetNodeId])
      if (!byId.has(end)) return invalidGraph(`an edge refers to node '${end}', which is not in the sequence`);
    if (edge.targetNodeId === trigger.id) return invalidGraph("no edge may lead into the trigger node");
  }

  for (const node of graph.nodes) {
    const exits = exitsOf(node);
    const edges = outgoing(graph, node.id);
    const conditions = edges.map((edge) => edge.condition);
    const matches = edges.length === exits.length && exits.every((exit) => conditions.filter((condition) => condition === exit).length === 1);
    if (matches) continue;
    if (exits.length === 0) return invalidGraph(`the completion node ends the sequence: no edge may leave it`);
    return invalidGraph(`node '${node.id}' (${node.nodeType}) must have exactly ${exits.map(describeExit).join(", ")} leaving it (it has ${edges.length})`);
  }

  const reachable = reachableFrom(graph, trigger.id);
  const stranded = graph.nodes.find((node) => !reachable.has(node.id));
  if (stranded) return invalidGraph(`node '${stranded.id}' (${stranded.nodeType}) cannot be reached from the trigger`);

  const looping = cycleWithoutDelay(graph);
  if (looping) return invalidGraph(`node '${looping}' is on a loop without a logic_delay: every loop must wait somewhere`);
  return ok(undefined);
}
