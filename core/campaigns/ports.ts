import type { SegmentDefinition } from "../segments/ports.js";
import { token } from "../shared/token.js";
import type { CampaignGoal } from "./goals.js";
import type { Campaign, CampaignStatus } from "./model.js";

export interface CampaignPage {
  readonly campaigns: Campaign[];
  readonly total: number;
}

/** A company's campaigns. Every method names the company. */
export interface CampaignRepository {
  /** Newest first. */
  list(companyId: string, filter: { status?: CampaignStatus | undefined; label?: string | undefined; limit: number; offset: number }): Promise<CampaignPage>;
  find(companyId: string, campaignId: string): Promise<Campaign | null>;
  insert(campaign: Campaign): Promise<void>;
  /**
   * In one transaction: the next occurrence of a recurring campaign (`previousOccurrenceId` set)
   * and its goals. False (nothing written) when that occurrence already has a next one.
   */
  insertOccurrence(campaign: Campaign, goals: readonly CampaignGoal[]): Promise<boolean>;
  /**
   * Saves every field of the campaign, only while its status is still `expected` (a state move
   * or an edit that raced another one changes nothing): false when it was not.
   */
  save(campaign: Campaign, expected: CampaignStatus): Promise<boolean>;
  /** Deletes it while its status is still `expected`; false when it was not. */
  delete(companyId: string, campaignId: string, expected: CampaignStatus): Promise<boolean>;
}
export const CampaignRepository = token<CampaignRepository>("lifecycle.CampaignRepository");

export interface NamedList {
  readonly id: string;
  readonly name: string;
}

/** What a campaign's audience reads: the company's lists, and how many contacts a campaign would reach. */
export interface CampaignAudienceQueries {
  /** The company's lists among `listIds` (others' and missing IDs are left out). */
  listsByIds(companyId: string, listIds: readonly string[]): Promise<NamedList[]>;
  /**
   * Contacts that match the definition and may get marketing email: not suppressed, and not
   * waiting to confirm a double opt-in (the definition itself keeps active contacts only).
   */
  countRecipients(definition: SegmentDefinition): Promise<number>;
}
export const CampaignAudienceQueries = token<CampaignAudienceQueries>("lifecycle.CampaignAudienceQueries");
