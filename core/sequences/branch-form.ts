import * as t from "io-ts";
import type { IdGenerator } from "../ports/id-generator.js";
import { boundedArray } from "../shared/bounded-array.js";
import { boundedText, optional, required } from "../shared/codecs.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { chainEdges, outgoing } from "./graph.js";
import { COMPLETION_NODE, MAX_STEPS_PER_REQUEST, type SequenceEdge, type SequenceGraph, type SequenceNode } from "./model.js";
import { checkNodeConfig, decodeAt } from "./node-configs.js";
import { JsonObject } from "../shared/view-fields.js";
import { NODE_SPACING, nodesFromSteps } from "./steps.js";

/**
 * PUT `branch`: a `logic_branch` after `afterNodeId`, each path a chain of new steps that then
 * leads to `targetNodeId` (default: where the anchor led), and in condition mode an else path
 * (`elseSteps`, `elseTargetNodeId`). A path with neither steps nor a target goes straight on,
 * which is refused unless `allowEmptyPaths` says it is meant.
 */

const Steps = boundedArray(t.unknown, 0, MAX_STEPS_PER_REQUEST);
const Id = boundedText(100);
const Path = t.exact(t.partial({ id: optional(boundedText(64)), steps: optional(Steps), targetNodeId: optional(Id) }), "BranchFormPath");
const BranchForm = t.exact(
  t.intersection([
    t.type({ afterNodeId: required(Id), branches: required(boundedArray(JsonObject, 1, 10)) }),
    t.partial({
      label: optional(boundedText(255)),
      splitMode: optional(t.unknown),
      randomPercentages: optional(t.unknown),
      elseSteps: optional(Steps),
      elseTargetNodeId: optional(Id),
      allowEmptyPaths: optional(t.boolean),
    }),
  ]),
  "BranchForm",
);

export interface AddedBranch {
  readonly graph: SequenceGraph;
  readonly branchNodeId: string;
  readonly pathNodeIds: string[];
}

export function addBranch(graph: SequenceGraph, input: unknown, ids: IdGenerator, now: Date): Result<AddedBranch> {
  const form = decodeAt(BranchForm, input, "branch");
  if (form._tag === "Left") return form;
  const { afterNodeId, branches, label, splitMode, randomPercentages, elseSteps, elseTargetNodeId, allowEmptyPaths = false } = form.right;
  const anchor = graph.nodes.find((node) => node.id === afterNodeId);
  if (!anchor) return fail(badRequest(`branch.afterNodeId: node '${afterNodeId}' is not in this sequence`));
  const exits = outgoing(graph, anchor.id);
  if (anchor.nodeType === COMPLETION_NODE || exits.length !== 1 || exits[0]!.condition !== undefined)
    return fail(badRequest(`branch.afterNodeId: a branch goes after a node with one way out; '${anchor.id}' is a ${anchor.nodeType}`));
  const onward = exits[0]!.targetNodeId;
  const known = new Set(graph.nodes.map((node) => node.id));

  const paths = [];
  for (const [index, raw] of branches.entries()) {
    const path = decodeAt(Path, raw, `branch.branches.${index}`);
    if (path._tag === "Left") return path;
    paths.push({ ...raw, ...path.right, id: path.right.id ?? `path_${index + 1}` });
  }
  const config = {
    ...(label !== undefined ? { label } : {}),
    ...(splitMode !== undefined ? { splitMode } : {}),
    ...(randomPercentages !== undefined ? { randomPercentages } : {}),
    paths: paths.map(({ steps: _steps, targetNodeId: _target, ...fields }) => fields),
  };
  const checked = checkNodeConfig("logic_branch", config, "branch", "branch");
  if (checked._tag === "Left") return checked;
  const random = checked.right.config.splitMode === "random";
  if (random && (elseSteps !== undefined || elseTargetNodeId !== undefined)) return fail(badRequest("branch: a random split has no else path"));

  const position = { x: anchor.position.x, y: anchor.position.y + NODE_SPACING };
  const branch: SequenceNode = { id: ids.next("node"), ...checked.right, position, updatedAt: now };
  const nodes: SequenceNode[] = [];
  const edges: SequenceEdge[] = graph.edges.filter((edge) => edge !== exits[0]).concat({ sourceNodeId: anchor.id, targetNodeId: branch.id });
  const ways = [
    ...paths.map((path, index) => ({
      condition: path.id,
      steps: path.steps,
      target: path.targetNodeId,
      at: `branch.branches.${index}`,
      mayBeEmpty: allowEmptyPaths,
    })),
    ...(random ? [] : [{ condition: "else", steps: elseSteps, target: elseTargetNodeId, at: "branch.else", mayBeEmpty: true }]),
  ];
  for (const [index, way] of ways.entries()) {
    if (way.target !== undefined && !known.has(way.target)) return fail(badRequest(`${way.at}: target node '${way.target}' is not in this sequence`));
    if (!way.mayBeEmpty && (way.steps ?? []).length === 0 && way.target === undefined)
      return fail(badRequest(`${way.at}: give steps or targetNodeId (or allowEmptyPaths: true to let the path go straight on)`));
    const start = { x: position.x + (index - (ways.length - 1) / 2) * 2 * NODE_SPACING, y: position.y };
    const chain = nodesFromSteps(way.steps ?? [], `${way.at}.steps`, ids, now, start);
    if (chain._tag === "Left") return chain;
    const target = way.target ?? onward;
    edges.push({ sourceNodeId: branch.id, targetNodeId: chain.right[0]?.id ?? target, condition: way.condition });
    edges.push(...chainEdges(chain.right, target));
    nodes.push(...chain.right);
  }
  return ok({ graph: { nodes: [...graph.nodes, branch, ...nodes], edges }, branchNodeId: branch.id, pathNodeIds: nodes.map((node) => node.id) });
}
