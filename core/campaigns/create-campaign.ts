import { TEMPLATE_NOT_FOUND } from "../emails/model.js";
import type { TemplateRepository } from "../emails/ports.js";
import { NO_BLOCKS, PROMPT_UNAVAILABLE, SUBJECT_REQUIRED } from "../emails/template-content.js";
import type { MetricsQueries } from "../metrics/ports.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { applyEdits, type EditDependencies } from "./campaign-edits.js";
import { campaignWithStats } from "./campaign-stats.js";
import type { CreateCampaignCommand } from "./commands.js";
import { NO_IDENTITY, NO_SCHEDULE, type Campaign } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import type { CampaignView } from "./view.js";

export const ONE_CONTENT_SOURCE = badRequest("Provide at most one of html, blocks, templateId and prompt");

/**
 * POST /campaigns: a draft with a name and subject, its body from html, blocks or a copy of a
 * template's content (templateId; its subject and preview text unless given), an audience and
 * an identity. `status: "sent"` with `sentAt` archives a campaign sent elsewhere: nothing is
 * delivered. A prompt is refused: no AI here.
 */
export class CreateCampaign {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly templates: TemplateRepository,
    private readonly edits: EditDependencies,
    private readonly metrics: MetricsQueries,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, input: CreateCampaignCommand): Promise<Result<CampaignView>> => {
    if (input.prompt !== undefined) return fail(PROMPT_UNAVAILABLE);
    if ([input.html, input.blocks, input.templateId].filter((source) => source !== undefined).length > 1) return fail(ONE_CONTENT_SOURCE);
    if (input.blocks?.length === 0) return fail(NO_BLOCKS);
    if (input.status === "sent" && !input.sentAt) return fail(badRequest("An archived campaign (status sent) needs sentAt"));
    if (input.status !== "sent" && input.sentAt) return fail(badRequest("sentAt is only for archiving a campaign sent elsewhere (status sent)"));

    const now = this.clock.now();
    let base: Campaign = {
      id: this.ids.next("cmp"),
      companyId: actor.companyId,
      name: input.name,
      subject: null,
      previewText: null,
      body: null,
      trackingCode: null,
      labels: [],
      targetLists: null,
      identity: NO_IDENTITY,
      ccEmails: [],
      bccEmails: [],
      campaignData: {},
      computedLists: [],
      maxRecipients: null,
      status: input.status ?? "draft",
      schedule: NO_SCHEDULE,
      sentAt: input.sentAt ?? null,
      source: null,
      externalId: null,
      createdAt: now,
      updatedAt: now,
    };
    if (input.templateId !== undefined) {
      const template = await this.templates.find(actor.companyId, input.templateId);
      if (!template) return fail(TEMPLATE_NOT_FOUND);
      base = { ...base, subject: template.subject, previewText: template.previewText, body: template.body };
    } else if (input.subject === undefined) {
      return fail(SUBJECT_REQUIRED);
    }
    const campaign = await applyEdits(this.edits, base, input, now);
    if (campaign._tag === "Left") return campaign;
    await this.campaigns.insert(campaign.right);
    return ok(await campaignWithStats(this.metrics, campaign.right));
  };
}
