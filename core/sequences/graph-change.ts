import type { IdGenerator } from "../ports/id-generator.js";
import { badRequest, conflict } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { UpdateSequenceCommand } from "./commands.js";
import { defaultAnchor, deleteNode, duplicateNode, insertAfter, moveNode } from "./graph-edits.js";
import { COMPLETION_NODE, TRIGGER_NODE, type Sequence, type SequenceGraph, type SequenceNode } from "./model.js";
import { checkNodeConfig } from "./node-configs.js";
import { nodesFromSteps } from "./steps.js";
import { addBranch } from "./branch-form.js";
import { editEmails, editSubscriberUpdateSteps } from "./content-edits.js";

/** What a graph change did, for the PUT response (compat-reference §10). */
export type GraphChangeReport = Readonly<{
  graphEditAction?: string;
  movedNodeId?: string;
  deletedNodeId?: string;
  deletedNodeIds?: readonly string[];
  duplicatedNodeId?: string;
  insertedNodeIds?: readonly string[];
  insertedEmailIds?: readonly string[];
  insertedEmailCount?: number;
  updatedNodeIds?: readonly string[];
  addedBranchNodeId?: string;
  addedBranchPathNodeIds?: readonly string[];
}>;

export interface GraphChange {
  readonly graph: SequenceGraph;
  readonly report: GraphChangeReport;
}

const staleRevision = (expected: number, current: number) =>
  fail(
    conflict(`The sequence graph is at revision ${current}, not ${expected}: it was changed since you read it. Reload the sequence and apply your edit again`, {
      code: "STALE_GRAPH_REVISION",
      extra: { graphRevision: current },
    }),
  );

function nodeUpdates(sequence: Sequence, updates: NonNullable<UpdateSequenceCommand["nodeUpdates"]>, now: Date): Result<GraphChange> {
  const changed = new Map<string, SequenceNode>();
  for (const [index, update] of updates.entries()) {
    const at = `nodeUpdates.${index}`;
    if (changed.has(update.nodeId)) return fail(badRequest(`${at}.nodeId: node '${update.nodeId}' is updated twice in one request`));
    const node = sequence.graph.nodes.find((candidate) => candidate.id === update.nodeId);
    if (!node) return fail(badRequest(`${at}.nodeId: node '${update.nodeId}' is not in this sequence`));
    if (node.updatedAt.getTime() !== update.expectedUpdatedAt.getTime())
      return fail(
        conflict(
          `${at}: node '${node.id}' was changed at ${node.updatedAt.toISOString()}, after the version you edited (${update.expectedUpdatedAt.toISOString()}). Reload the sequence and apply your change again`,
          { code: "STALE_NODE", extra: { nodeId: node.id, updatedAt: node.updatedAt.toISOString() } },
        ),
      );
    if (update.changes.config === undefined && update.changes.position === undefined) return fail(badRequest(`${at}.changes: give config or position`));
    let config = node.config;
    if (update.changes.config !== undefined) {
      if (node.nodeType === TRIGGER_NODE || node.nodeType === COMPLETION_NODE)
        return fail(
          badRequest(`${at}.changes.config: the ${node.nodeType} node has no config of its own (the trigger is set with the sequence's trigger fields)`),
        );
      // Changes merge into the config; a null removes the field.
      const merged = Object.fromEntries(Object.entries({ ...node.config, ...update.changes.config }).filter(([, value]) => value !== null));
      const checked = checkNodeConfig(node.nodeType, merged, at, `${at}.changes.config`);
      if (checked._tag === "Left") return checked;
      config = checked.right.config;
    }
    changed.set(node.id, { ...node, config, position: update.changes.position ?? node.position, updatedAt: now });
  }
  return ok({
    graph: { ...sequence.graph, nodes: sequence.graph.nodes.map((node) => changed.get(node.id) ?? node) },
    report: { updatedNodeIds: [...changed.keys()] },
  });
}

function insertSteps(sequence: Sequence, input: NonNullable<UpdateSequenceCommand["insertSteps"]>, ids: IdGenerator, now: Date): Result<GraphChange> {
  if (input.expectedRevision !== undefined && input.expectedRevision !== sequence.graphRevision)
    return staleRevision(input.expectedRevision, sequence.graphRevision);
  const anchorId = input.afterNodeId !== undefined ? ok(input.afterNodeId) : defaultAnchor(sequence.graph);
  if (anchorId._tag === "Left") return anchorId;
  const anchor = sequence.graph.nodes.find((node) => node.id === anchorId.right);
  const nodes = nodesFromSteps(input.steps, "insertSteps.steps", ids, now, anchor?.position ?? { x: 0, y: 0 });
  if (nodes._tag === "Left") return nodes;
  const graph = insertAfter(sequence.graph, anchorId.right, nodes.right, "insertSteps.afterNodeId");
  if (graph._tag === "Left") return graph;
  const emails = nodes.right.filter((node) => node.nodeType === "action_email").map((node) => node.id);
  return ok({
    graph: graph.right,
    report: { insertedNodeIds: nodes.right.map((node) => node.id), insertedEmailIds: emails, insertedEmailCount: emails.length },
  });
}

function graphEdit(sequence: Sequence, edit: NonNullable<UpdateSequenceCommand["graphEdit"]>, ids: IdGenerator, now: Date): Result<GraphChange> {
  if (edit.expectedRevision !== sequence.graphRevision) return staleRevision(edit.expectedRevision, sequence.graphRevision);
  const graph = sequence.graph;
  const nodeId = edit.nodeId;
  if (edit.action !== "replace_edges" && nodeId === undefined) return fail(badRequest(`graphEdit: ${edit.action} needs nodeId`));
  switch (edit.action) {
    case "move_node": {
      const moved = moveNode(graph, nodeId!, { afterNodeId: edit.afterNodeId, beforeNodeId: edit.beforeNodeId });
      return moved._tag === "Left" ? moved : ok({ graph: moved.right, report: { graphEditAction: edit.action, movedNodeId: nodeId! } });
    }
    case "delete_node": {
      const deleted = deleteNode(graph, nodeId!);
      if (deleted._tag === "Left") return deleted;
      return ok({ graph: deleted.right.graph, report: { graphEditAction: edit.action, deletedNodeId: nodeId!, deletedNodeIds: deleted.right.deletedNodeIds } });
    }
    case "duplicate_node": {
      const copy = (node: SequenceNode): SequenceNode => ({
        ...node,
        id: ids.next("node"),
        position: { x: node.position.x + 40, y: node.position.y + 40 },
        updatedAt: now,
      });
      const duplicated = duplicateNode(graph, nodeId!, copy, edit.afterNodeId);
      if (duplicated._tag === "Left") return duplicated;
      return ok({ graph: duplicated.right.graph, report: { graphEditAction: edit.action, duplicatedNodeId: duplicated.right.duplicate.id } });
    }
    case "replace_edges": {
      if (edit.edges === undefined) return fail(badRequest("graphEdit: replace_edges needs edges (the whole new set)"));
      const edges = edit.edges.map((edge) => ({
        sourceNodeId: edge.sourceNodeId,
        targetNodeId: edge.targetNodeId,
        ...(edge.condition !== undefined && edge.condition !== null ? { condition: edge.condition } : {}),
      }));
      return ok({ graph: { nodes: graph.nodes, edges }, report: { graphEditAction: edit.action } });
    }
  }
}

const GRAPH_FORMS = ["nodeUpdates", "insertSteps", "graphEdit", "emails", "steps", "subscriberUpdateSteps", "branch"] as const;

/** The PUT forms that change the graph; at most one per request. Null when the request changes no graph. */
export function graphChange(sequence: Sequence, input: UpdateSequenceCommand, ids: IdGenerator, now: Date): Result<GraphChange | null> {
  const given = GRAPH_FORMS.filter((form) => input[form] !== undefined);
  if (given.length > 1) return fail(badRequest(`Give one of ${GRAPH_FORMS.join(", ")} per request (got ${given.join(", ")})`));
  if (input.nodeUpdates) return nodeUpdates(sequence, input.nodeUpdates, now);
  if (input.insertSteps) return insertSteps(sequence, input.insertSteps, ids, now);
  if (input.graphEdit) return graphEdit(sequence, input.graphEdit, ids, now);
  const form = input.emails ? "emails" : input.steps ? "steps" : undefined;
  if (form) {
    const edited = editEmails(sequence.graph, input[form]!, form, now);
    return edited._tag === "Left" ? edited : ok({ graph: edited.right.graph, report: { updatedNodeIds: edited.right.updatedNodeIds } });
  }
  if (input.subscriberUpdateSteps) {
    const edited = editSubscriberUpdateSteps(sequence.graph, input.subscriberUpdateSteps, now);
    return edited._tag === "Left" ? edited : ok({ graph: edited.right.graph, report: { updatedNodeIds: edited.right.updatedNodeIds } });
  }
  if (input.branch !== undefined) {
    const added = addBranch(sequence.graph, input.branch, ids, now);
    if (added._tag === "Left") return added;
    return ok({ graph: added.right.graph, report: { addedBranchNodeId: added.right.branchNodeId, addedBranchPathNodeIds: added.right.pathNodeIds } });
  }
  return ok(null);
}
