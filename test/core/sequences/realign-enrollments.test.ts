import test from "ava";
import { deleteNode } from "../../../core/sequences/graph-edits.js";
import type { SequenceGraph, SequenceNode } from "../../../core/sequences/model.js";
import { realignmentAfterEdit } from "../../../core/sequences/realign-enrollments.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");
const node = (id: string, nodeType: SequenceNode["nodeType"], config: Record<string, unknown> = {}): SequenceNode => ({
  id,
  nodeType,
  config,
  position: { x: 0, y: 0 },
  updatedAt: NOW,
});

/** trigger -> email1 -> delay -> condition (yes: email2, no: email3 -> tag) -> completion. */
const GRAPH: SequenceGraph = {
  nodes: [
    node("trigger", "trigger"),
    node("email1", "action_email"),
    node("delay", "logic_delay", { delayDays: 1 }),
    node("condition", "logic_condition", { conditionType: "has_tag", tagName: "vip" }),
    node("email2", "action_email"),
    node("email3", "action_email"),
    node("tag", "action_add_tag", { tagName: "seen" }),
    node("completion", "completion"),
  ],
  edges: [
    { sourceNodeId: "trigger", targetNodeId: "email1" },
    { sourceNodeId: "email1", targetNodeId: "delay" },
    { sourceNodeId: "delay", targetNodeId: "condition" },
    { sourceNodeId: "condition", targetNodeId: "email2", condition: "yes" },
    { sourceNodeId: "condition", targetNodeId: "email3", condition: "no" },
    { sourceNodeId: "email2", targetNodeId: "completion" },
    { sourceNodeId: "email3", targetNodeId: "tag" },
    { sourceNodeId: "tag", targetNodeId: "completion" },
  ],
};

const afterDeleting = (graph: SequenceGraph, nodeId: string): SequenceGraph => {
  const deleted = deleteNode(graph, nodeId);
  if (deleted._tag === "Left") throw new Error(deleted.left.message);
  return deleted.right.graph;
};

test("the contacts at a deleted step go on at the step that took its place", (t) => {
  t.deepEqual(realignmentAfterEdit(GRAPH, afterDeleting(GRAPH, "delay")), [{ fromNodeIds: ["delay"], toNodeId: "condition", completes: false }]);
  t.deepEqual(realignmentAfterEdit(GRAPH, afterDeleting(GRAPH, "email1")), [{ fromNodeIds: ["email1"], toNodeId: "delay", completes: false }]);
});

test("the contacts at a deleted last step end at the completion node", (t) => {
  t.deepEqual(realignmentAfterEdit(GRAPH, afterDeleting(GRAPH, "email2")), [{ fromNodeIds: ["email2"], toNodeId: "completion", completes: true }]);
  t.deepEqual(realignmentAfterEdit(GRAPH, afterDeleting(GRAPH, "tag")), [{ fromNodeIds: ["tag"], toNodeId: "completion", completes: true }]);
});

test("a deleted condition: its contacts take the way it kept, and those on the steps only its other way reached end", (t) => {
  const after = afterDeleting(GRAPH, "condition");
  t.deepEqual(realignmentAfterEdit(GRAPH, after), [
    { fromNodeIds: ["condition"], toNodeId: "email2", completes: false },
    { fromNodeIds: ["email3", "tag"], toNodeId: "completion", completes: true },
  ]);
});

test("an edit that removes no node moves no one", (t) => {
  t.deepEqual(realignmentAfterEdit(GRAPH, GRAPH), []);
});
