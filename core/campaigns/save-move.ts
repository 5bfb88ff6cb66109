import { fail, ok, type Result } from "../shared/result.js";
import { CAMPAIGN_NOT_FOUND, type Campaign } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import { illegalMove, type CampaignMove } from "./transitions.js";

/**
 * Saves a campaign changed by `move`, only if no other request moved it since it was read; when
 * one did, the refusal names the state it is in now.
 */
export async function saveMove(campaigns: CampaignRepository, before: Campaign, after: Campaign, move: CampaignMove): Promise<Result<Campaign>> {
  if (await campaigns.save(after, before.status)) return ok(after);
  const now = await campaigns.find(before.companyId, before.id);
  return fail(now ? illegalMove(now.status, move) : CAMPAIGN_NOT_FOUND);
}
