import type { FilterLeafInput } from "../segments/model.js";
import type { SegmentRepository } from "../segments/ports.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { ruleFilters, type AudienceRules } from "./audience.js";
import { CAMPAIGN_NOT_FOUND, type AudienceRule, type CampaignStatus, type TargetLists } from "./model.js";
import type { CampaignAudienceQueries, CampaignRepository } from "./ports.js";
import { resolveAudience, type AudienceReference } from "./resolve-audience.js";

export interface CampaignAudience {
  readonly campaignId: string;
  readonly campaignName: string;
  readonly status: CampaignStatus;
  readonly audience: {
    readonly type: TargetLists["type"];
    readonly summary: string;
    readonly isUnset: boolean;
    readonly lists: readonly AudienceReference[];
    readonly segments: readonly AudienceReference[];
    readonly filters: readonly FilterLeafInput[];
    readonly include: readonly AudienceRule[];
    readonly exclude: readonly AudienceRule[];
  };
  readonly recipientCount: number;
  readonly targetLists: TargetLists | null;
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? "" : "s"}`;

function describeRule(rule: AudienceRule, lists: ReadonlyMap<string, AudienceReference>, segments: ReadonlyMap<string, AudienceReference>): string {
  const named = (ids: readonly string[], references: ReadonlyMap<string, AudienceReference>) =>
    ids.map((id) => references.get(id)?.name ?? `${id} (deleted)`).join(", ");
  switch (rule.type) {
    case "all":
      return "all active subscribers";
    case "lists":
      return `${rule.listIds.length === 1 ? "list" : "lists"} ${named(rule.listIds, lists)}`;
    case "segments":
      return `${rule.segmentIds.length === 1 ? "segment" : "segments"} ${named(rule.segmentIds, segments)}`;
    case "filtered":
      return `contacts matching ${plural(rule.filters.length, "filter")}`;
  }
}

/** One sentence a person can read: who is included, then who is left out. */
function summaryOf(rules: AudienceRules, lists: readonly AudienceReference[], segments: readonly AudienceReference[]): string {
  const listsById = new Map(lists.map((list) => [list.id, list]));
  const segmentsById = new Map(segments.map((segment) => [segment.id, segment]));
  const include = rules.include.map((rule) => describeRule(rule, listsById, segmentsById)).join(" or ");
  const text = rules.isUnset ? "No audience set: all active subscribers" : include.charAt(0).toUpperCase() + include.slice(1);
  if (rules.exclude.length === 0) return text;
  return `${text}, excluding ${rules.exclude.map((rule) => describeRule(rule, listsById, segmentsById)).join(" and ")}`;
}

/**
 * GET /campaigns/{id}/audience: who the campaign targets and how many contacts it would reach
 * now: active contacts matching the audience, less suppressed addresses and contacts who have
 * not confirmed a double opt-in. Lists and segments deleted since are shown as missing and reach nobody.
 */
export class GetCampaignAudience {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly segments: SegmentRepository,
    private readonly audience: CampaignAudienceQueries,
    private readonly clock: Clock,
    private readonly docsUrl: string,
  ) {}

  execute = async (actor: Actor, campaignId: string): Promise<Result<CampaignAudience>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    const resolved = await resolveAudience(
      { segments: this.segments, audience: this.audience },
      { companyId: actor.companyId, campaignId, target: campaign.targetLists, now: this.clock.now(), docsUrl: this.docsUrl },
    );
    if (resolved._tag === "Left") return resolved;
    const { rules, lists, segments, definition } = resolved.right;
    return ok({
      campaignId,
      campaignName: campaign.name,
      status: campaign.status,
      audience: {
        type: campaign.targetLists?.type ?? "all",
        summary: summaryOf(rules, lists, segments),
        isUnset: rules.isUnset,
        lists,
        segments,
        filters: ruleFilters([...rules.include, ...rules.exclude]),
        include: rules.include,
        exclude: rules.exclude,
      },
      recipientCount: definition ? await this.audience.countRecipients(definition) : 0,
      targetLists: campaign.targetLists,
    });
  };
}
