import type { ConditionType } from "./conditions.js";
import type { Sequence, SequenceNode } from "./model.js";
import { sendingWindowProblem } from "./sending-window.js";
import { stopConditionProblem } from "./stop-conditions.js";

/**
 * What the engine runs today. A sequence that needs anything else cannot be enabled: enabling it
 * answers a 400 that names what is missing, rather than a live sequence that silently stalls.
 */

/** Triggers that start enrollments by themselves (any sequence also takes POST .../enroll). */
export const STARTING_TRIGGERS = ["contact_added", "tag_added", "segment_entered", "event_received", "frequency", "inactivity"] as const;

/** Node types the engine executes. */
export const ENGINE_NODE_TYPES = [
  "trigger",
  "completion",
  "action_email",
  "action_add_tag",
  "action_remove_tag",
  "action_add_to_list",
  "action_remove_from_list",
  "action_update_attributes",
  "action_webhook",
  "logic_delay",
  "logic_wait_for_event",
  "logic_condition",
  "logic_branch",
] as const;

/** Condition types the engine evaluates: every compat type but `sms_subscribed` (this server sends no SMS). */
export const ENGINE_CONDITION_TYPES: readonly ConditionType[] = [
  "has_tag",
  "does_not_have_tag",
  "in_list",
  "in_segment",
  "event_received",
  "link_clicked",
  "field_equals",
  "field_contains",
  "field_greater_than",
  "field_less_than",
  "has_phone",
];

const conditionProblem = (node: SequenceNode, condition: Record<string, unknown>): string | null =>
  ENGINE_CONDITION_TYPES.includes(condition.conditionType as ConditionType)
    ? null
    : `node ${node.id}: condition type '${String(condition.conditionType)}' is not evaluated by this server (supported: ${ENGINE_CONDITION_TYPES.join(", ")})`;

function nodeProblem(node: SequenceNode): string | null {
  if (!(ENGINE_NODE_TYPES as readonly string[]).includes(node.nodeType)) return `node ${node.id}: node type '${node.nodeType}' does not run on this server yet`;
  if (node.nodeType === "logic_condition") return conditionProblem(node, node.config);
  if (node.nodeType === "logic_branch" && node.config.splitMode !== "random")
    for (const path of node.config.paths as Record<string, unknown>[]) {
      const problem = conditionProblem(node, path);
      if (problem) return problem;
    }
  return null;
}

/** Why the engine could not run this sequence as it is (empty when it can). The sender is checked by the caller. */
export function runProblems(sequence: Sequence): string[] {
  const problems: string[] = [];
  if (!(STARTING_TRIGGERS as readonly string[]).includes(sequence.trigger))
    problems.push(`trigger '${sequence.trigger}' does not start enrollments on this server yet (${STARTING_TRIGGERS.join(", ")} do)`);
  const window = sendingWindowProblem(sequence);
  if (window) problems.push(window);
  const stop = stopConditionProblem(sequence);
  if (stop) problems.push(stop);
  for (const node of sequence.graph.nodes) {
    const problem = nodeProblem(node);
    if (problem) problems.push(problem);
  }
  return problems;
}
