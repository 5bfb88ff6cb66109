import type { MetricsQueries } from "../metrics/ports.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { campaignWithStats } from "./campaign-stats.js";
import type { DuplicateCampaignCommand } from "./commands.js";
import { CAMPAIGN_NOT_FOUND, NO_SCHEDULE, type Campaign } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import type { CampaignView } from "./view.js";

const MAX_NAME = 255;
const COPY = " (copy)";

/** The name of a copy: the original's with " (copy)", shortened to fit. */
export const copyName = (name: string): string => `${name.slice(0, MAX_NAME - COPY.length)}${COPY}`;

/**
 * POST /campaigns/{id}/duplicate: a new draft with the campaign's content, audience, identity,
 * labels and data, whatever state the original is in; no schedule, no sends, no import origin.
 */
export class DuplicateCampaign {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly metrics: MetricsQueries,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, campaignId: string, input: DuplicateCampaignCommand): Promise<Result<CampaignView>> => {
    if (input.mode !== undefined && input.mode !== "campaign")
      return fail(badRequest("A/B tests and variants are not available on this server: duplicate with mode campaign"));
    const original = await this.campaigns.find(actor.companyId, campaignId);
    if (!original) return fail(CAMPAIGN_NOT_FOUND);
    const now = this.clock.now();
    const copy: Campaign = {
      ...original,
      id: this.ids.next("cmp"),
      name: copyName(original.name),
      status: "draft",
      schedule: { ...NO_SCHEDULE, sendTimeOptimization: original.schedule.sendTimeOptimization, sendTimeWindowHours: original.schedule.sendTimeWindowHours },
      sentAt: null,
      previousOccurrenceId: null,
      source: null,
      externalId: null,
      createdAt: now,
      updatedAt: now,
    };
    await this.campaigns.insert(copy);
    return ok(await campaignWithStats(this.metrics, copy));
  };
}
