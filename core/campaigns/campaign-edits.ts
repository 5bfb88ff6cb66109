import type { ProfileRepository } from "../company/ports.js";
import { bodyFrom, PROMPT_UNAVAILABLE, uniqueLabels } from "../emails/template-content.js";
import type { SegmentRepository } from "../segments/ports.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { checkTarget, targetFromInput } from "./audience.js";
import { computedListsFrom, computedListsProblem } from "./computed-lists.js";
import { editedIdentity } from "./campaign-identity.js";
import type { UpdateCampaignCommand } from "./commands.js";
import type { Campaign, TargetLists } from "./model.js";
import type { CampaignAudienceQueries } from "./ports.js";
import { refuseMissingReferences, resolveAudience } from "./resolve-audience.js";

export interface EditDependencies {
  readonly profiles: ProfileRepository;
  readonly segments: SegmentRepository;
  readonly audience: CampaignAudienceQueries;
  readonly docsUrl: string;
}

/** A new audience must name only the company's lists and segments and be well formed. */
export async function checkedTarget(deps: EditDependencies, campaign: Campaign, target: TargetLists, now: Date): Promise<Result<TargetLists>> {
  const rules = checkTarget(target);
  if (rules._tag === "Left") return rules;
  const resolved = await resolveAudience(deps, { companyId: campaign.companyId, campaignId: campaign.id, target, now, docsUrl: deps.docsUrl });
  if (resolved._tag === "Left") return resolved;
  const references = refuseMissingReferences(resolved.right);
  return references._tag === "Left" ? references : ok(target);
}

/**
 * A campaign with the fields of a create or PUT applied: fields not given are kept; null clears
 * targetLists, ccEmails, bccEmails and maxRecipients; "" or null clears trackingCode. Refuses
 * a prompt (no AI here), two body sources, computed lists that do not fit the campaignData and
 * audiences naming others' lists.
 */
export async function applyEdits(deps: EditDependencies, campaign: Campaign, input: UpdateCampaignCommand, now: Date): Promise<Result<Campaign>> {
  if (input.prompt !== undefined) return fail(PROMPT_UNAVAILABLE);
  const campaignData = input.campaignData ?? campaign.campaignData;
  const computedLists = input.computedLists !== undefined ? computedListsFrom(input.computedLists ?? []) : campaign.computedLists;
  const listsProblem = computedListsProblem(computedLists, campaignData);
  if (listsProblem) return fail(badRequest(listsProblem));
  const body = bodyFrom(input);
  if (body._tag === "Left") return body;
  const identity = await editedIdentity(deps.profiles, campaign.companyId, campaign.identity, input);
  if (identity._tag === "Left") return identity;
  const target = targetFromInput(input);
  if (target._tag === "Left") return target;
  let targetLists = campaign.targetLists;
  if (target.right !== undefined) {
    if (target.right === null) targetLists = null;
    else {
      const checked = await checkedTarget(deps, campaign, target.right, now);
      if (checked._tag === "Left") return checked;
      targetLists = checked.right;
    }
  }
  return ok({
    ...campaign,
    name: input.name ?? campaign.name,
    subject: input.subject ?? campaign.subject,
    previewText: input.previewText !== undefined ? input.previewText : campaign.previewText,
    body: body.right ?? campaign.body,
    trackingCode: input.trackingCode !== undefined ? input.trackingCode : campaign.trackingCode,
    labels: input.labels ? uniqueLabels(input.labels) : campaign.labels,
    targetLists,
    identity: identity.right,
    ccEmails: input.ccEmails !== undefined ? [...new Set(input.ccEmails ?? [])] : campaign.ccEmails,
    bccEmails: input.bccEmails !== undefined ? [...new Set(input.bccEmails ?? [])] : campaign.bccEmails,
    campaignData,
    computedLists,
    maxRecipients: input.maxRecipients !== undefined ? input.maxRecipients : campaign.maxRecipients,
    schedule: {
      ...campaign.schedule,
      sendTimeOptimization: input.sendTimeOptimization ?? campaign.schedule.sendTimeOptimization,
      sendTimeWindowHours: input.sendTimeWindowHours ?? campaign.schedule.sendTimeWindowHours,
    },
    updatedAt: now,
  });
}
