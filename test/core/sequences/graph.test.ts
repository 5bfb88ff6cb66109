import test from "ava";
import fc from "fast-check";
import type { IdGenerator } from "../../../core/ports/id-generator.js";
import { deleteNode, duplicateNode, moveNode } from "../../../core/sequences/graph-edits.js";
import { validateGraph } from "../../../core/sequences/graph.js";
import type { SequenceEdge, SequenceGraph, SequenceNode } from "../../../core/sequences/model.js";
import { checkNodeConfig } from "../../../core/sequences/node-configs.js";
import { linearGraph } from "../../../core/sequences/steps.js";

const NOW = new Date("2026-11-22T10:00:00.000Z");

function counter(): IdGenerator {
  let next = 0;
  return { next: (prefix) => `${prefix}_${String(++next).padStart(4, "0")}` };
}

/** Single-exit steps with valid configs. */
const STEPS: ReadonlyArray<Pick<SequenceNode, "nodeType" | "config">> = [
  { nodeType: "action_email", config: { subject: "Hi", html: "<p>hi</p>" } },
  { nodeType: "action_add_tag", config: { tagName: "vip" } },
  { nodeType: "action_webhook", config: { url: "https://example.com/hook" } },
  { nodeType: "logic_delay", config: { delayDays: 1 } },
  { nodeType: "logic_wait_for_event", config: { eventName: "clicked" } },
];
const stepKinds = fc.array(fc.integer({ min: 0, max: STEPS.length - 1 }), { minLength: 0, maxLength: 12 });

function chain(kinds: readonly number[], ids = counter()): SequenceGraph {
  const nodes = kinds.map((kind) => ({ id: ids.next("node"), ...STEPS[kind]!, position: { x: 0, y: 0 }, updatedAt: NOW }));
  return linearGraph(nodes, ids, NOW);
}

/** Node types along the one path from the trigger. */
function order(graph: SequenceGraph): string[] {
  const ids: string[] = [];
  let current: string | undefined = graph.nodes.find((node) => node.nodeType === "trigger")?.id;
  while (current && ids.length <= graph.nodes.length) {
    ids.push(current);
    current = graph.edges.find((edge) => edge.sourceNodeId === current)?.targetNodeId;
  }
  return ids;
}

const errorOf = (graph: SequenceGraph): string | null => {
  const result = validateGraph(graph);
  return result._tag === "Left" ? result.left.message : null;
};

test("every linear chain of runnable steps is a valid graph", (t) => {
  fc.assert(fc.property(stepKinds, (kinds) => errorOf(chain(kinds)) === null));
  t.pass();
});

test("taking any one edge away strands a node or leaves a node without its way out", (t) => {
  fc.assert(
    fc.property(stepKinds, fc.nat(), (kinds, pick) => {
      const graph = chain(kinds);
      const edges = graph.edges.filter((_, index) => index !== pick % graph.edges.length);
      return errorOf({ ...graph, edges })?.startsWith("Invalid sequence graph: ") ?? false;
    }),
  );
  t.pass();
});

test("a loop back from a condition is accepted exactly when a logic_delay is on it", (t) => {
  fc.assert(
    fc.property(
      stepKinds.filter((kinds) => kinds.length > 0),
      fc.nat(),
      (kinds, pick) => {
        const ids = counter();
        const graph = chain(kinds, ids);
        // A condition before the completion: "yes" ends, "no" goes back to an earlier step.
        const completion = graph.nodes.find((node) => node.nodeType === "completion")!;
        const last = graph.edges.find((edge) => edge.targetNodeId === completion.id)!;
        const condition: SequenceNode = {
          id: "node_cond",
          nodeType: "logic_condition",
          config: { conditionType: "has_phone" },
          position: { x: 0, y: 0 },
          updatedAt: NOW,
        };
        const path = order(graph).slice(1, -1);
        const back = path[pick % path.length]!;
        const edges: SequenceEdge[] = [
          ...graph.edges.filter((edge) => edge !== last),
          { sourceNodeId: last.sourceNodeId, targetNodeId: condition.id },
          { sourceNodeId: condition.id, targetNodeId: completion.id, condition: "yes" },
          { sourceNodeId: condition.id, targetNodeId: back, condition: "no" },
        ];
        const looped = { nodes: [...graph.nodes, condition], edges };
        const onLoop = path.slice(path.indexOf(back));
        const hasDelay = onLoop.some((id) => graph.nodes.find((node) => node.id === id)?.nodeType === "logic_delay");
        const error = errorOf(looped);
        return hasDelay ? error === null : error !== null && error.includes("is on a loop without a logic_delay");
      },
    ),
  );
  t.pass();
});

test("one trigger and one completion, edges between known nodes, none into the trigger", (t) => {
  const graph = chain([0]);
  const trigger = graph.nodes[0]!;
  const completion = graph.nodes[graph.nodes.length - 1]!;
  t.is(
    errorOf({ ...graph, nodes: [...graph.nodes, { ...trigger, id: "node_x" }] }),
    "Invalid sequence graph: a sequence has exactly one trigger node (found 2)",
  );
  t.is(
    errorOf({ ...graph, nodes: graph.nodes.filter((node) => node !== completion), edges: [] }),
    "Invalid sequence graph: a sequence has exactly one completion node (found 0)",
  );
  t.is(
    errorOf({ ...graph, edges: [...graph.edges, { sourceNodeId: "node_ghost", targetNodeId: completion.id }] }),
    "Invalid sequence graph: an edge refers to node 'node_ghost', which is not in the sequence",
  );
  t.is(
    errorOf({ ...graph, edges: [...graph.edges.slice(0, -1), { sourceNodeId: graph.nodes[1]!.id, targetNodeId: trigger.id }] }),
    "Invalid sequence graph: no edge may lead into the trigger node",
  );
  t.is(
    errorOf({ ...graph, edges: [...graph.edges, { sourceNodeId: completion.id, targetNodeId: graph.nodes[1]!.id }] }),
    "Invalid sequence graph: the completion node ends the sequence: no edge may leave it",
  );
});

test("moving, duplicating and deleting a step keep the graph valid and the other steps in order", (t) => {
  fc.assert(
    fc.property(
      stepKinds.filter((kinds) => kinds.length >= 2),
      fc.nat(),
      fc.nat(),
      (kinds, a, b) => {
        const graph = chain(kinds);
        const steps = order(graph).slice(1, -1);
        const node = steps[a % steps.length]!;
        const anchor = order(graph)[b % (steps.length + 1)]!;

        const deleted = deleteNode(graph, node);
        if (deleted._tag === "Left" || errorOf(deleted.right.graph) !== null) return false;
        if (
          order(deleted.right.graph).join() !==
          order(graph)
            .filter((id) => id !== node)
            .join()
        )
          return false;

        const duplicated = duplicateNode(graph, node, (original) => ({ ...original, id: "node_copy" }));
        if (duplicated._tag === "Left" || errorOf(duplicated.right.graph) !== null) return false;
        const withCopy = order(graph).flatMap((id) => (id === node ? [id, "node_copy"] : [id]));
        if (order(duplicated.right.graph).join() !== withCopy.join()) return false;

        if (anchor === node) return true;
        const moved = moveNode(graph, node, { afterNodeId: anchor });
        if (moved._tag === "Left" || errorOf(moved.right) !== null) return false;
        const expected = order(graph)
          .filter((id) => id !== node)
          .flatMap((id) => (id === anchor ? [id, node] : [id]));
        return order(moved.right).join() === expected.join();
      },
    ),
  );
  t.pass();
});

test("node configs: unsupported types are named, HTTPS webhooks only, random split percentages sum to 100", (t) => {
  const message = (type: string, config: unknown) => {
    const result = checkNodeConfig(type, config, "steps.0");
    return result._tag === "Left" ? result.left.message : null;
  };
  for (const type of ["action_sms", "action_ai", "action_create_discount", "action_ab_test"])
    t.is(
      message(type, {}),
      `steps.0: node type '${type}' is not supported by this server (it cannot send SMS, run AI steps, create discounts or run A/B tests)`,
    );
  t.is(message("action_webhook", { url: "http://example.com" }), "Invalid request: steps.0.config.url must be an absolute https:// URL");
  t.is(message("action_webhook", { url: "https://example.com", resultKey: "k".repeat(64), onError: "exit" }), null);
  t.regex(message("action_webhook", { url: "https://example.com", resultKey: "k".repeat(65) }) ?? "", /resultKey must be 1 to 64/);
  t.is(
    message("action_webhook", { url: "https://example.com", onError: "retry" }),
    "Invalid request: steps.0.config.onError must be one of: continue, exit, fail",
  );
  t.is(message("action_email", { subject: "Hi" }), "steps.0.config: give exactly one of html or blocks");
  t.is(
    message("action_webhook", { url: "https://example.com", headers: { "X-Token": "a\r\nBcc: x" } }),
    "Invalid request: steps.0.config.headers.X-Token must not contain line breaks or NUL characters",
  );
  t.is(
    message("action_webhook", { url: "https://example.com", headers: { "Bad Name": "x" } }),
    "Invalid request: steps.0.config.headers header name 'Bad Name' is not a valid HTTP header name",
  );
  t.is(
    message("action_email", { subject: "Hi", html: "x", fromName: "Ann\nBcc: x" }),
    "Invalid request: steps.0.config.fromName must not contain line breaks or NUL characters",
  );
  t.is(message("action_update_attributes", {}), "steps.0.config: give at least one of firstName, lastName, status or customAttributeUpdates");
  t.is(message("logic_condition", { conditionType: "in_list" }), "steps.0.config: in_list needs listId");
  t.is(message("logic_wait_for_event", { eventName: "x", timeoutDays: 400 }), "Invalid request: steps.0.config.timeoutDays must be between 1 and 365");

  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 2, maxLength: 10 }), (percentages) => {
      const paths = percentages.map((_, index) => ({ id: `p${index}` }));
      const result = checkNodeConfig("logic_branch", { splitMode: "random", paths, randomPercentages: percentages }, "steps.0");
      const sum = percentages.reduce((total, value) => total + value, 0);
      return sum === 100 ? result._tag === "Right" : result._tag === "Left" && result.left.message.endsWith(`must sum to 100 (they sum to ${sum})`);
    }),
  );
});

test("deleting a condition keeps its 'yes' way and drops the steps only its 'no' way reached", (t) => {
  const ids = counter();
  const graph = chain([0], ids);
  const [trigger, email, completion] = graph.nodes as [SequenceNode, SequenceNode, SequenceNode];
  const condition: SequenceNode = {
    id: "node_cond",
    nodeType: "logic_condition",
    config: { conditionType: "has_phone" },
    position: { x: 0, y: 0 },
    updatedAt: NOW,
  };
  const onlyNo: SequenceNode = { id: "node_no", nodeType: "action_add_tag", config: { tagName: "no-phone" }, position: { x: 0, y: 0 }, updatedAt: NOW };
  const branched: SequenceGraph = {
    nodes: [trigger, condition, email, onlyNo, completion],
    edges: [
      { sourceNodeId: trigger.id, targetNodeId: condition.id },
      { sourceNodeId: condition.id, targetNodeId: email.id, condition: "yes" },
      { sourceNodeId: condition.id, targetNodeId: onlyNo.id, condition: "no" },
      { sourceNodeId: email.id, targetNodeId: completion.id },
      { sourceNodeId: onlyNo.id, targetNodeId: completion.id },
    ],
  };
  t.is(errorOf(branched), null);
  const deleted = deleteNode(branched, condition.id);
  if (deleted._tag === "Left") return t.fail(deleted.left.message);
  t.deepEqual(deleted.right.deletedNodeIds, [condition.id, onlyNo.id]);
  t.deepEqual(order(deleted.right.graph), [trigger.id, email.id, completion.id]);
  t.is(errorOf(deleted.right.graph), null);
});
