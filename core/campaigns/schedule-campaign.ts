import type { MetricsQueries } from "../metrics/ports.js";
import type { Clock } from "../ports/clock.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { targetFromInput } from "./audience.js";
import { checkedTarget, type EditDependencies } from "./campaign-edits.js";
import { campaignWithStats } from "./campaign-stats.js";
import type { ScheduleCampaignCommand } from "./commands.js";
import { CAMPAIGN_NOT_FOUND, type Campaign, type CampaignSchedule } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import { refuseMissingReferences, resolveAudience } from "./resolve-audience.js";
import { earliestDue, isTimeZone } from "./recipient-time.js";
import { saveMove } from "./save-move.js";
import { startCampaignSendJob } from "./send-jobs.js";
import { transition } from "./transitions.js";
import type { CampaignView } from "./view.js";

/** A scheduledAt this little in the past means "now": the send starts at once (a client's clock and the request take a moment). */
const NOW_GRACE_MS = 60_000;

/** What the campaign lacks to be sent: a subject and content (no targeting means every active contact). */
function missingRequirements(campaign: Campaign): string[] {
  const missing: string[] = [];
  if (!campaign.subject?.trim()) missing.push("a subject");
  const body = campaign.body;
  if (!body || ("html" in body ? body.html.trim() === "" : body.blocks.length === 0)) missing.push("content (html or at least one block)");
  return missing;
}

/**
 * POST /campaigns/{id}/schedule: a draft (or a scheduled campaign, whose schedule is replaced)
 * is scheduled for a future `scheduledAt` (or now: it starts at once), optionally spread over 1-72 hours, in each
 * recipient's timezone, or recurring weekly or monthly. It needs a subject, content and an
 * audience whose lists and segments still exist; `targetLists` or `listIds` here replace it.
 */
export class ScheduleCampaign {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly edits: EditDependencies,
    private readonly metrics: MetricsQueries,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, campaignId: string, input: ScheduleCampaignCommand): Promise<Result<{ campaign: CampaignView; scheduledAt: string }>> => {
    const campaign = await this.campaigns.find(actor.companyId, campaignId);
    if (!campaign) return fail(CAMPAIGN_NOT_FOUND);
    const status = transition(campaign.status, "schedule");
    if (status._tag === "Left") return status;
    const now = this.clock.now();
    if (input.scheduledAt.getTime() < now.getTime() - NOW_GRACE_MS) return fail(badRequest("scheduledAt must be in the future"));
    if (input.scheduledTimezone !== undefined && !isTimeZone(input.scheduledTimezone)) {
      return fail(badRequest("scheduledTimezone must be an IANA timezone such as Europe/Paris"));
    }
    if (input.sendInRecipientTimezone) {
      if (input.scheduledTimezone === undefined) return fail(badRequest("sendInRecipientTimezone needs scheduledTimezone (an IANA timezone)"));
      if (input.recurringInterval !== undefined || input.spreadOverHours !== undefined) {
        return fail(badRequest("sendInRecipientTimezone cannot be combined with recurringInterval or spreadOverHours"));
      }
    }
    const missing = missingRequirements(campaign);
    if (missing.length > 0) return fail(badRequest(`Campaign cannot be scheduled: it needs ${missing.join(" and ")}`));

    const target = targetFromInput({ listIds: input.listIds, targetLists: input.targetLists });
    if (target._tag === "Left") return target;
    let targetLists = campaign.targetLists;
    if (target.right) {
      const checked = await checkedTarget(this.edits, campaign, target.right, now);
      if (checked._tag === "Left") return checked;
      targetLists = checked.right;
    } else {
      // The audience was checked when written, but a list or segment may have been deleted since.
      const resolved = await resolveAudience(this.edits, { companyId: actor.companyId, campaignId, target: targetLists, now, docsUrl: this.edits.docsUrl });
      if (resolved._tag === "Left") return resolved;
      const references = refuseMissingReferences(resolved.right);
      if (references._tag === "Left") return references;
    }

    const spreadOverHours = input.spreadOverHours ?? null;
    const schedule: CampaignSchedule = {
      scheduledAt: input.scheduledAt,
      scheduledTimezone: input.scheduledTimezone ?? null,
      sendInRecipientTimezone: input.sendInRecipientTimezone ?? false,
      spreadOverHours,
      recurringInterval: input.recurringInterval ?? null,
      // A series counts its dates from its first: scheduling (again) starts it from scheduledAt.
      recurrenceAnchor: input.recurringInterval !== undefined ? input.scheduledAt : null,
      // A spread decides the send times itself: it overrides send-time optimisation.
      sendTimeOptimization: spreadOverHours !== null ? false : (input.sendTimeOptimization ?? campaign.schedule.sendTimeOptimization),
      sendTimeWindowHours: input.sendTimeWindowHours ?? campaign.schedule.sendTimeWindowHours,
    };
    const scheduled: Campaign = {
      ...campaign,
      status: status.right,
      targetLists,
      schedule,
      maxRecipients: input.maxRecipients !== undefined ? input.maxRecipients : campaign.maxRecipients,
      updatedAt: now,
    };
    const saved = await saveMove(this.campaigns, campaign, scheduled, "schedule");
    if (saved._tag === "Left") return saved;
    // The send starts at scheduledAt, or where it is first due in recipients' timezones (a start
    // job that finds the campaign unscheduled or moved does nothing; the sweep catches a lost one).
    const startsAt =
      schedule.sendInRecipientTimezone && schedule.scheduledTimezone ? earliestDue(input.scheduledAt, schedule.scheduledTimezone) : input.scheduledAt;
    await this.jobs.enqueue(startCampaignSendJob(actor.companyId, campaignId, startsAt));
    return ok({ campaign: await campaignWithStats(this.metrics, saved.right), scheduledAt: input.scheduledAt.toISOString() });
  };
}
