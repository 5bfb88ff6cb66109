import { contactVariables, type ContactForMerge } from "../emails/merge-variables.js";
import type { Actor } from "../shared/actor.js";
import { badRequest, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import type { PreviewComputedDataCommand } from "./commands.js";
import { resolveComputedLists, type ResolvedComputedList } from "./computed-lists.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import { variablesWithLists } from "./preview-campaign.js";

export interface ComputedData {
  readonly variables: Record<string, unknown>;
  readonly lists: readonly ResolvedComputedList[];
}

/**
 * POST /campaigns/{id}/preview-computed-data (spec, Campaigns): the merge values the campaign
 * resolves for a stored or inline contact, as its render resolves them.
 */
export class PreviewComputedData {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly subscribers: SubscriberRepository,
  ) {}

  execute = async (actor: Actor, campaignId: string, input: PreviewComputedDataCommand): Promise<Result<ComputedData>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    if (input.subscriberId === undefined && input.subscriber === undefined) return fail(badRequest("Provide subscriberId or subscriber."));
    if (input.subscriberId !== undefined && input.subscriber !== undefined) return fail(badRequest("Provide subscriberId or subscriber, not both"));
    let contact: ContactForMerge | null = input.subscriber ?? null;
    if (input.subscriberId !== undefined) {
      contact = await this.subscribers.findById(actor.companyId, input.subscriberId);
      if (!contact) return fail(notFound("Subscriber not found"));
    }
    const values = contactVariables(contact!);
    const lists = resolveComputedLists(campaign.computedLists, campaign.campaignData, values);
    return ok({ variables: variablesWithLists(campaign, values, lists), lists });
  };
}
