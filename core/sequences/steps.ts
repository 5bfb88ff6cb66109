import * as t from "io-ts";
import type { IdGenerator } from "../ports/id-generator.js";
import { integerBetween, optional } from "../shared/codecs.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { chainEdges } from "./graph.js";
import { checkNodeConfig, decodeAt } from "./node-configs.js";
import { COMPLETION_NODE, TRIGGER_NODE, type Position, type SequenceGraph, type SequenceNode } from "./model.js";

/**
 * Steps: the linear way of writing content (create `steps[]`, PUT `insertSteps`). A step is an
 * email (the default `type`), an `update_subscriber` step, or any node as `{nodeType, config}`;
 * `delayDays` / `delayHours` / `delayMinutes` on a step put a `logic_delay` before it.
 */

const StepDelay = t.exact(
  t.partial({
    delayDays: optional(integerBetween(0, 3650)),
    delayHours: optional(integerBetween(0, 87_600)),
    delayMinutes: optional(integerBetween(0, 5_256_000)),
  }),
  "StepDelay",
);

/** The hosted product's step types and the node type each becomes. */
const STEP_TYPES: Readonly<Record<string, string>> = {
  email: "action_email",
  update_subscriber: "action_update_attributes",
  sms: "action_sms",
  create_discount: "action_create_discount",
  ab_test: "action_ab_test",
};

export const NODE_SPACING = 150;

/** The node type and config a step describes, checked. */
function stepNode(step: Record<string, unknown>, path: string): Result<{ nodeType: SequenceNode["nodeType"]; config: Record<string, unknown> }> {
  if (step.nodeType !== undefined) {
    if (typeof step.nodeType !== "string") return fail(badRequest(`${path}.nodeType must be a string`));
    return checkNodeConfig(step.nodeType, step.config ?? {}, path);
  }
  const type = step.type ?? "email";
  const nodeType = typeof type === "string" ? STEP_TYPES[type] : undefined;
  if (nodeType === undefined)
    return fail(badRequest(`${path}.type: unknown step type ${JSON.stringify(type)}; use email, update_subscriber, or nodeType with config`));
  // Email and update steps carry their fields inline (an update step may nest them in `config`).
  const nested = nodeType === "action_update_attributes" && step.config !== undefined;
  return checkNodeConfig(nodeType, nested ? step.config : step, path, nested ? `${path}.config` : path);
}

/** The nodes `steps` describe, in order (a delay node before each step that asks for one). */
export function nodesFromSteps(steps: readonly unknown[], path: string, ids: IdGenerator, now: Date, start: Position): Result<SequenceNode[]> {
  const nodes: SequenceNode[] = [];
  const place = (): Position => ({ x: start.x, y: start.y + NODE_SPACING * (nodes.length + 1) });
  for (const [index, raw] of steps.entries()) {
    const at = `${path}.${index}`;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return fail(badRequest(`${at} must be an object`));
    const step = raw as Record<string, unknown>;
    const delay = decodeAt(StepDelay, step, at);
    if (delay._tag === "Left") return delay;
    const { delayDays = 0, delayHours = 0, delayMinutes = 0 } = delay.right;
    const node = stepNode(step, at);
    if (node._tag === "Left") return node;
    if (delayDays + delayHours + delayMinutes > 0 && node.right.nodeType !== "logic_delay") {
      const config = Object.fromEntries(Object.entries({ delayDays, delayHours, delayMinutes }).filter(([, value]) => value > 0));
      nodes.push({ id: ids.next("node"), nodeType: "logic_delay", config, position: place(), updatedAt: now });
    }
    nodes.push({ id: ids.next("node"), ...node.right, position: place(), updatedAt: now });
  }
  return ok(nodes);
}

/** A graph of the trigger, `nodes` one after the other (every way out of each to the next), and the completion. */
export function linearGraph(nodes: readonly SequenceNode[], ids: IdGenerator, now: Date): SequenceGraph {
  const trigger: SequenceNode = { id: ids.next("node"), nodeType: TRIGGER_NODE, config: {}, position: { x: 0, y: 0 }, updatedAt: now };
  const completion: SequenceNode = {
    id: ids.next("node"),
    nodeType: COMPLETION_NODE,
    config: {},
    position: { x: 0, y: NODE_SPACING * (nodes.length + 1) },
    updatedAt: now,
  };
  return { nodes: [trigger, ...nodes, completion], edges: chainEdges([trigger, ...nodes], completion.id) };
}
