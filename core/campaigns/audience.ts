import { prepareFlat, type FilterGroup, type FilterLeafInput, type FilterNode, type JoinOperator } from "../segments/model.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { AudienceRule, TargetLists } from "./model.js";

/**
 * What a campaign's `targetLists` means, whatever compat form it was written in: contacts that
 * match any include rule and no exclude rule. No targeting at all means every active contact.
 */
export interface AudienceRules {
  readonly include: readonly AudienceRule[];
  readonly exclude: readonly AudienceRule[];
  readonly isUnset: boolean;
}

const ALL: AudienceRule = { type: "all" };

/** The include and exclude rules of a target (null: unset, everyone). */
export function audienceRules(target: TargetLists | null): AudienceRules {
  if (!target) return { include: [ALL], exclude: [], isUnset: true };
  const exclude = target.exclude ?? [];
  switch (target.type) {
    case "all":
      return { include: [ALL], exclude, isUnset: false };
    case "lists":
      return { include: [{ type: "lists", listIds: target.listIds ?? [] }], exclude, isUnset: false };
    case "segment":
      return { include: target.segmentId ? [{ type: "segments", segmentIds: [target.segmentId] }] : [], exclude, isUnset: false };
    case "filtered":
      return { include: [{ type: "filtered", filters: target.filters ?? [], filterJoinOperator: target.filterJoinOperator }], exclude, isUnset: false };
    case "rules":
      return { include: target.include ?? [], exclude, isUnset: false };
  }
}

/** The target an input's audience fields give: at most one of segmentId, listIds and targetLists. */
export function targetFromInput(input: {
  readonly segmentId?: string | undefined;
  readonly listIds?: string[] | undefined;
  readonly targetLists?: TargetLists | null | undefined;
}): Result<TargetLists | null | undefined> {
  const given = [input.segmentId, input.listIds, input.targetLists].filter((value) => value !== undefined).length;
  if (given > 1) return fail(badRequest("Provide only one of segmentId, listIds and targetLists"));
  if (input.segmentId !== undefined) return ok({ type: "segment", segmentId: input.segmentId });
  if (input.listIds !== undefined) return ok({ type: "lists", listIds: input.listIds });
  return ok(input.targetLists);
}

const noId = () => "rule";

/** The filters of a filtered rule as one group, checked like a segment's. */
export const filterGroupOf = (filters: readonly FilterLeafInput[], join: JoinOperator | undefined, newId: () => string = noId): Result<FilterGroup> =>
  prepareFlat(filters, join ?? "and", newId);

/** A target the caller wrote must say what its type needs; rules are checked like segment filters. */
export function checkTarget(target: TargetLists): Result<AudienceRules> {
  const needs = (field: string) => fail<AudienceRules>(badRequest(`targetLists of type ${target.type} needs ${field}`));
  if (target.type === "lists" && !target.listIds?.length) return needs("listIds");
  if (target.type === "segment" && !target.segmentId) return needs("segmentId");
  if (target.type === "filtered" && !target.filters?.length) return needs("filters");
  if (target.type === "rules" && !target.include?.length) return needs("at least one include rule");
  const rules = audienceRules(target);
  if (rules.exclude.some((rule) => rule.type === "all")) return fail(badRequest('targetLists.exclude cannot hold {type:"all"}: it would leave nobody'));
  for (const rule of [...rules.include, ...rules.exclude]) {
    if (rule.type !== "filtered") continue;
    const group = filterGroupOf(rule.filters, rule.filterJoinOperator);
    if (group._tag === "Left") return group;
  }
  return ok(rules);
}

/** The list IDs the rules name, in order, once each. */
export const ruleListIds = (rules: readonly AudienceRule[]): string[] => [...new Set(rules.flatMap((rule) => (rule.type === "lists" ? rule.listIds : [])))];

/** The segment IDs the rules name, in order, once each. */
export const ruleSegmentIds = (rules: readonly AudienceRule[]): string[] => [
  ...new Set(rules.flatMap((rule) => (rule.type === "segments" ? rule.segmentIds : []))),
];

/** The filter leaves of the rules' filtered rules (what `audience.filters` shows). */
export const ruleFilters = (rules: readonly AudienceRule[]): FilterLeafInput[] => rules.flatMap((rule) => (rule.type === "filtered" ? rule.filters : []));

/** A leaf of the audience tree. */
export const leaf = (field: "list" | "segment" | "status", operator: "is" | "is_not", value: string): FilterNode => ({
  kind: "filter",
  id: `${field}-${operator}-${value}`,
  field,
  operator,
  value,
});
