import { NO_SUPPORTED_FIELDS } from "../emails/update-template.js";
import type { MetricsQueries } from "../metrics/ports.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { applyEdits, type EditDependencies } from "./campaign-edits.js";
import { campaignWithStats } from "./campaign-stats.js";
import type { UpdateCampaignCommand } from "./commands.js";
import { CAMPAIGN_NOT_FOUND } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import { saveMove } from "./save-move.js";
import { transition } from "./transitions.js";
import type { CampaignView } from "./view.js";

/** PUT /campaigns/{id}: drafts only; fields not given are kept (`campaignId`/`companyId` in the body are ignored). */
export class UpdateCampaign {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly edits: EditDependencies,
    private readonly metrics: MetricsQueries,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, campaignId: string, input: UpdateCampaignCommand): Promise<Result<CampaignView>> => {
    const current = await this.campaigns.find(actor.companyId, campaignId);
    if (!current) return fail(CAMPAIGN_NOT_FOUND);
    const allowed = transition(current.status, "edit");
    if (allowed._tag === "Left") return allowed;
    if (Object.values(input).every((value) => value === undefined)) return fail(NO_SUPPORTED_FIELDS);
    const edited = await applyEdits(this.edits, current, input, this.clock.now());
    if (edited._tag === "Left") return edited;
    const saved = await saveMove(this.campaigns, current, edited.right, "edit");
    return saved._tag === "Left" ? saved : ok(await campaignWithStats(this.metrics, saved.right));
  };
}
