import * as t from "io-ts";
import { boundedText, integerBetween, optional } from "../shared/codecs.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SequenceGraph, SequenceNode } from "./model.js";
import { checkNodeConfig, decodeAt } from "./node-configs.js";
import { stepNumbers } from "./view.js";

/**
 * The content forms of PUT: `emails[]` / `steps[]` edit existing email steps (found by nodeId,
 * emailId or order), `subscriberUpdateSteps[]` replace an update step's config. Email changes
 * merge into the node's config (a null removes a field); the result is checked like any config.
 */

const EmailReference = t.exact(
  t.partial({ nodeId: optional(boundedText(100)), emailId: optional(boundedText(100)), order: optional(integerBetween(1, 1000)) }),
  "EmailReference",
);
const REFERENCE_KEYS = ["nodeId", "emailId", "order", "stepNumber"];

/** Email nodes in the order a contact meets them (the `emails[]` order of the detail). */
function emailsInOrder(graph: SequenceGraph): SequenceNode[] {
  const numbers = stepNumbers(graph);
  return graph.nodes.filter((node) => node.nodeType === "action_email").sort((a, b) => (numbers.get(a.id) ?? 0) - (numbers.get(b.id) ?? 0));
}

export function editEmails(
  graph: SequenceGraph,
  edits: readonly unknown[],
  form: string,
  now: Date,
): Result<{ graph: SequenceGraph; updatedNodeIds: string[] }> {
  const emails = emailsInOrder(graph);
  const changed = new Map<string, SequenceNode>();
  for (const [index, raw] of edits.entries()) {
    const at = `${form}.${index}`;
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return fail(badRequest(`${at} must be an object`));
    const reference = decodeAt(EmailReference, raw, at);
    if (reference._tag === "Left") return reference;
    const { nodeId, emailId, order } = reference.right;
    const id = nodeId ?? emailId;
    const node = id !== undefined ? emails.find((email) => email.id === id) : order !== undefined ? emails[order - 1] : undefined;
    if (id === undefined && order === undefined) return fail(badRequest(`${at}: say which email step to edit with nodeId, emailId or order`));
    if (!node) return fail(badRequest(`${at}: this sequence has no email step ${id !== undefined ? `'${id}'` : `number ${order}`}`));
    if (changed.has(node.id)) return fail(badRequest(`${at}: email step '${node.id}' is edited twice in one request`));
    const changes = Object.fromEntries(Object.entries(raw).filter(([key]) => !REFERENCE_KEYS.includes(key)));
    const merged = Object.fromEntries(Object.entries({ ...node.config, ...changes }).filter(([, value]) => value !== null));
    const checked = checkNodeConfig(node.nodeType, merged, at, at);
    if (checked._tag === "Left") return checked;
    changed.set(node.id, { ...node, config: checked.right.config, updatedAt: now });
  }
  return ok({ graph: { ...graph, nodes: graph.nodes.map((node) => changed.get(node.id) ?? node) }, updatedNodeIds: [...changed.keys()] });
}

const UpdateStepEdit = t.exact(t.type({ nodeId: boundedText(100), config: t.unknown }), "SubscriberUpdateStep");

export function editSubscriberUpdateSteps(
  graph: SequenceGraph,
  edits: readonly unknown[],
  now: Date,
): Result<{ graph: SequenceGraph; updatedNodeIds: string[] }> {
  const changed = new Map<string, SequenceNode>();
  for (const [index, raw] of edits.entries()) {
    const at = `subscriberUpdateSteps.${index}`;
    const edit = decodeAt(UpdateStepEdit, raw, at);
    if (edit._tag === "Left") return edit;
    const node = graph.nodes.find((candidate) => candidate.id === edit.right.nodeId);
    if (!node || node.nodeType !== "action_update_attributes")
      return fail(badRequest(`${at}.nodeId: this sequence has no update-subscriber step '${edit.right.nodeId}'`));
    if (changed.has(node.id)) return fail(badRequest(`${at}: step '${node.id}' is edited twice in one request`));
    const checked = checkNodeConfig(node.nodeType, edit.right.config, at);
    if (checked._tag === "Left") return checked;
    changed.set(node.id, { ...node, config: checked.right.config, updatedAt: now });
  }
  return ok({ graph: { ...graph, nodes: graph.nodes.map((node) => changed.get(node.id) ?? node) }, updatedNodeIds: [...changed.keys()] });
}
