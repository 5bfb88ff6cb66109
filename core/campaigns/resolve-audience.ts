import { checkedDefinition } from "../segments/checked-definition.js";
import { checkOwnedLists } from "../segments/owned-lists.js";
import type { FilterGroup, FilterNode } from "../segments/model.js";
import type { SegmentDefinition, SegmentRepository } from "../segments/ports.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { audienceRules, filterGroupOf, leaf, ruleListIds, ruleSegmentIds, type AudienceRules } from "./audience.js";
import type { TargetLists } from "./model.js";
import type { CampaignAudienceQueries } from "./ports.js";

export interface AudienceReference {
  readonly id: string;
  /** Null when the list or segment no longer exists. */
  readonly name: string | null;
  readonly missing: boolean;
}

export interface ResolvedAudience {
  readonly rules: AudienceRules;
  readonly lists: readonly AudienceReference[];
  readonly segments: readonly AudienceReference[];
  /** What to count; null when the include rules can match nobody (they only name lists or segments that are gone). */
  readonly definition: SegmentDefinition | null;
}

/** The ID a filtered exclude rule gets among the definition's referenced trees (never a real segment's: those start `seg_`). */
const excludedFilters = (index: number) => `campaign-exclude-${index}`;

/**
 * A campaign's audience made evaluable: the lists and segments it names (each marked missing
 * once deleted), and one segment definition of its recipients: active contacts matching any
 * include rule and no exclude rule. A filtered exclude rule becomes a referenced tree the root
 * says "not in", so it is the exact complement of its filters. Lists and segments that are gone
 * match nobody; filters are checked as a segment's are (their lists, their segment references).
 */
export async function resolveAudience(
  deps: { readonly segments: SegmentRepository; readonly audience: CampaignAudienceQueries },
  input: { readonly companyId: string; readonly campaignId: string; readonly target: TargetLists | null; readonly now: Date; readonly docsUrl: string },
): Promise<Result<ResolvedAudience>> {
  const { companyId } = input;
  const rules = audienceRules(input.target);
  const every = [...rules.include, ...rules.exclude];
  const lists = await deps.audience.listsByIds(companyId, ruleListIds(every));
  const segments = await deps.segments.findMany(companyId, ruleSegmentIds(every));
  const listNames = new Map(lists.map((list) => [list.id, list.name]));
  const segmentNames = new Map(segments.map((segment) => [segment.id, segment.name]));
  const reference = (names: ReadonlyMap<string, string>) => (id: string) => ({ id, name: names.get(id) ?? null, missing: !names.has(id) });
  const known = (ids: readonly string[], names: ReadonlyMap<string, string>) => ids.filter((id) => names.has(id));

  const include: FilterNode[] = [];
  for (const rule of rules.include) {
    if (rule.type === "lists" && known(rule.listIds, listNames).length > 0) include.push(leaf("list", "is", known(rule.listIds, listNames).join(",")));
    if (rule.type === "segments") include.push(...known(rule.segmentIds, segmentNames).map((id) => leaf("segment", "is", id)));
    if (rule.type === "filtered") {
      const group = filterGroupOf(rule.filters, rule.filterJoinOperator);
      if (group._tag === "Left") return group;
      include.push(group.right);
    }
  }
  const exclude: FilterNode[] = [];
  const excludedTrees = new Map<string, FilterGroup>();
  for (const rule of rules.exclude) {
    if (rule.type === "lists" && known(rule.listIds, listNames).length > 0) exclude.push(leaf("list", "is_not", known(rule.listIds, listNames).join(",")));
    if (rule.type === "segments") exclude.push(...known(rule.segmentIds, segmentNames).map((id) => leaf("segment", "is_not", id)));
    if (rule.type === "filtered") {
      const group = filterGroupOf(rule.filters, rule.filterJoinOperator);
      if (group._tag === "Left") return group;
      const id = excludedFilters(excludedTrees.size);
      excludedTrees.set(id, group.right);
      exclude.push(leaf("segment", "is_not", id));
    }
  }
  for (const tree of [...include, ...excludedTrees.values()]) {
    if (tree.kind !== "group") continue;
    const owned = await checkOwnedLists(deps.segments, companyId, tree);
    if (owned._tag === "Left") return owned;
  }

  const resolved = {
    rules,
    lists: ruleListIds(every).map(reference(listNames)),
    segments: ruleSegmentIds(every).map(reference(segmentNames)),
  };
  const everyone = rules.include.some((rule) => rule.type === "all");
  if (!everyone && include.length === 0) return ok({ ...resolved, definition: null });

  const children: FilterNode[] = [leaf("status", "is", "active")];
  if (!everyone) children.push({ kind: "group", id: "include", joinOperator: "or", children: include });
  const root: FilterGroup = { kind: "group", id: "audience", joinOperator: "and", children: [...children, ...exclude] };
  // The references are loaded and checked on a tree holding the excluded filters themselves, not their stand-ins.
  const checkedRoot: FilterGroup = {
    ...root,
    children: [...children, ...exclude.filter((node) => node.kind !== "filter" || !excludedTrees.has(node.value)), ...excludedTrees.values()],
  };
  const checked = await checkedDefinition(deps.segments, { companyId, segmentId: input.campaignId, root: checkedRoot, now: input.now, docsUrl: input.docsUrl });
  if (checked._tag === "Left") return checked;
  return ok({ ...resolved, definition: { companyId, root, referenced: new Map([...checked.right.referenced, ...excludedTrees]), now: input.now } });
}

/** A target being written must name only lists and segments of the company (the same answer for others' and missing ones). */
export function refuseMissingReferences(audience: ResolvedAudience): Result<void> {
  const missingLists = audience.lists.filter((list) => list.missing).map((list) => list.id);
  if (missingLists.length > 0) return fail(badRequest(`The audience names lists that do not exist: ${missingLists.join(", ")}`));
  const missingSegments = audience.segments.filter((segment) => segment.missing).map((segment) => segment.id);
  if (missingSegments.length > 0) return fail(badRequest(`The audience names segments that do not exist: ${missingSegments.join(", ")}`));
  return ok(undefined);
}
