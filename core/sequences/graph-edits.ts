import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { chainEdges, exitsOf, outgoing, reachableFrom } from "./graph.js";
import { COMPLETION_NODE, TRIGGER_NODE, type SequenceEdge, type SequenceGraph, type SequenceNode } from "./model.js";

/**
 * Structural edits of a graph, as pure functions. Each returns the edited graph (or why the edit
 * cannot be made); the caller validates the result as a whole before storing it.
 */

const nodeNotFound = (nodeId: string, field: string) => fail(badRequest(`${field}: node '${nodeId}' is not in this sequence`));

function findNode(graph: SequenceGraph, nodeId: string, field: string): Result<SequenceNode> {
  const node = graph.nodes.find((candidate) => candidate.id === nodeId);
  return node ? ok(node) : nodeNotFound(nodeId, field);
}

/** The one edge leaving a node that has a single way out (actions, delays, waits, the trigger). */
function singleExit(graph: SequenceGraph, node: SequenceNode, field: string, doing: string): Result<SequenceEdge> {
  const edges = outgoing(graph, node.id);
  if (exitsOf(node).length !== 1 || edges.length !== 1)
    return fail(badRequest(`${field}: ${doing} needs a node with one way out; '${node.id}' is a ${node.nodeType}`));
  return ok(edges[0]!);
}

/** Takes a single-exit node out of its place: the edges that led into it lead to the node after it. */
function detach(graph: SequenceGraph, node: SequenceNode, field: string, doing: string): Result<SequenceGraph> {
  if (node.nodeType === TRIGGER_NODE || node.nodeType === COMPLETION_NODE) return fail(badRequest(`${field}: the ${node.nodeType} node cannot be ${doing}`));
  const exit = singleExit(graph, node, field, doing);
  if (exit._tag === "Left") return exit;
  const after = exit.right.targetNodeId;
  const edges = graph.edges
    .filter((edge) => edge.sourceNodeId !== node.id)
    .map((edge) => (edge.targetNodeId === node.id ? { ...edge, targetNodeId: after } : edge));
  return ok({ nodes: graph.nodes, edges });
}

/**
 * Puts `chain` (new nodes, or detached ones, in order) after `anchorId`, which must have one way
 * out: the anchor leads to the first, each leads by all its ways out to the next, and the last
 * to where the anchor used to lead. Nodes of `chain` not yet in the graph are added.
 */
export function insertAfter(graph: SequenceGraph, anchorId: string, chain: readonly SequenceNode[], field: string): Result<SequenceGraph> {
  if (chain.length === 0) return fail(badRequest(`${field}: give at least one step to insert`));
  const anchor = findNode(graph, anchorId, field);
  if (anchor._tag === "Left") return anchor;
  if (anchor.right.nodeType === COMPLETION_NODE) return fail(badRequest(`${field}: nothing can follow the completion node`));
  const exit = singleExit(graph, anchor.right, field, "inserting after a node");
  if (exit._tag === "Left") return exit;
  const ids = new Set(chain.map((node) => node.id));
  const kept = graph.nodes.filter((node) => !ids.has(node.id));
  const edges = graph.edges.filter((edge) => edge !== exit.right);
  edges.push(...chainEdges(chain, exit.right.targetNodeId));
  edges.push({ sourceNodeId: anchor.right.id, targetNodeId: chain[0]!.id });
  return ok({ nodes: [...kept, ...chain], edges });
}

/** Puts a single-exit node just before `beforeId`: every edge that led into it now leads into the node. */
function insertBefore(graph: SequenceGraph, beforeId: string, node: SequenceNode, field: string): Result<SequenceGraph> {
  const before = findNode(graph, beforeId, field);
  if (before._tag === "Left") return before;
  if (before.right.nodeType === TRIGGER_NODE) return fail(badRequest(`${field}: nothing can come before the trigger node`));
  const edges = graph.edges.map((edge) => (edge.targetNodeId === beforeId ? { ...edge, targetNodeId: node.id } : edge));
  edges.push({ sourceNodeId: node.id, targetNodeId: beforeId });
  return ok({ nodes: [...graph.nodes.filter((candidate) => candidate.id !== node.id), node], edges });
}

/** Where new steps go when the request names no node: after the one node that leads to the completion. */
export function defaultAnchor(graph: SequenceGraph): Result<string> {
  const completion = graph.nodes.find((node) => node.nodeType === COMPLETION_NODE);
  const leading = [...new Set(graph.edges.filter((edge) => edge.targetNodeId === completion?.id).map((edge) => edge.sourceNodeId))];
  if (leading.length === 1) return ok(leading[0]!);
  return fail(badRequest("insertSteps.afterNodeId is required: several paths end this sequence, so say after which node the steps go"));
}

export interface Placement {
  readonly afterNodeId?: string | undefined;
  readonly beforeNodeId?: string | undefined;
}

export function moveNode(graph: SequenceGraph, nodeId: string, placement: Placement): Result<SequenceGraph> {
  const node = findNode(graph, nodeId, "graphEdit.nodeId");
  if (node._tag === "Left") return node;
  if ((placement.afterNodeId === undefined) === (placement.beforeNodeId === undefined))
    return fail(badRequest("graphEdit: move_node needs exactly one of afterNodeId and beforeNodeId"));
  if (placement.afterNodeId === nodeId || placement.beforeNodeId === nodeId) return fail(badRequest("graphEdit: a node cannot be moved next to itself"));
  const detached = detach(graph, node.right, "graphEdit.nodeId", "moved");
  if (detached._tag === "Left") return detached;
  const moved =
    placement.afterNodeId !== undefined
      ? insertAfter(detached.right, placement.afterNodeId, [node.right], "graphEdit.afterNodeId")
      : insertBefore(detached.right, placement.beforeNodeId!, node.right, "graphEdit.beforeNodeId");
  return moved;
}

/**
 * Deletes a node. A node with one way out is taken out of the chain; a condition or branch node
 * keeps its first way out (`yes`, or its first path), and the steps only its other ways reached go
 * with it. Returns the graph and every node ID removed.
 */
export function deleteNode(graph: SequenceGraph, nodeId: string): Result<{ graph: SequenceGraph; deletedNodeIds: string[] }> {
  const node = findNode(graph, nodeId, "graphEdit.nodeId");
  if (node._tag === "Left") return node;
  if (node.right.nodeType === TRIGGER_NODE || node.right.nodeType === COMPLETION_NODE)
    return fail(badRequest(`graphEdit.nodeId: the ${node.right.nodeType} node cannot be deleted`));
  const exits = exitsOf(node.right);
  if (exits.length === 1) {
    const detached = detach(graph, node.right, "graphEdit.nodeId", "deleted");
    if (detached._tag === "Left") return detached;
    return ok({ graph: { ...detached.right, nodes: graph.nodes.filter((candidate) => candidate.id !== nodeId) }, deletedNodeIds: [nodeId] });
  }
  const kept = outgoing(graph, nodeId).find((edge) => edge.condition === exits[0]);
  if (!kept) return fail(badRequest(`graphEdit.nodeId: node '${nodeId}' has no '${exits[0]}' way out to keep`));
  const rewired: SequenceGraph = {
    nodes: graph.nodes.filter((candidate) => candidate.id !== nodeId),
    edges: graph.edges
      .filter((edge) => edge.sourceNodeId !== nodeId)
      .map((edge) => (edge.targetNodeId === nodeId ? { ...edge, targetNodeId: kept.targetNodeId } : edge)),
  };
  const trigger = rewired.nodes.find((candidate) => candidate.nodeType === TRIGGER_NODE)!;
  const reachable = reachableFrom(rewired, trigger.id);
  const gone = rewired.nodes.filter((candidate) => !reachable.has(candidate.id) && candidate.nodeType !== COMPLETION_NODE).map((candidate) => candidate.id);
  const goneIds = new Set(gone);
  return ok({
    graph: {
      nodes: rewired.nodes.filter((candidate) => !goneIds.has(candidate.id)),
      edges: rewired.edges.filter((edge) => !goneIds.has(edge.sourceNodeId) && !goneIds.has(edge.targetNodeId)),
    },
    deletedNodeIds: [nodeId, ...gone],
  });
}

/** A copy of a single-exit node, placed right after the original (or after `afterNodeId`). */
export function duplicateNode(
  graph: SequenceGraph,
  nodeId: string,
  copy: (node: SequenceNode) => SequenceNode,
  afterNodeId?: string,
): Result<{ graph: SequenceGraph; duplicate: SequenceNode }> {
  const node = findNode(graph, nodeId, "graphEdit.nodeId");
  if (node._tag === "Left") return node;
  if (node.right.nodeType === TRIGGER_NODE || node.right.nodeType === COMPLETION_NODE || exitsOf(node.right).length !== 1)
    return fail(badRequest(`graphEdit.nodeId: only a node with one way out can be duplicated; '${nodeId}' is a ${node.right.nodeType}`));
  const duplicate = copy(node.right);
  const placed = insertAfter(graph, afterNodeId ?? nodeId, [duplicate], afterNodeId !== undefined ? "graphEdit.afterNodeId" : "graphEdit.nodeId");
  return placed._tag === "Left" ? placed : ok({ graph: placed.right, duplicate });
}
