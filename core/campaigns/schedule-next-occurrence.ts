import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { CampaignGoalRepository } from "./goals.js";
import type { Campaign } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import { nextOccurrence } from "./recurrence.js";
import { startCampaignSendJob } from "./send-jobs.js";

/**
 * A recurring campaign goes on as a series of campaigns: when one occurrence's send has finished
 * (`sent`), the next is made as a campaign of its own, scheduled for the series' next date, with
 * the same content, audience (resolved and frozen again when it starts), identity, labels, data,
 * pacing, recurrence and goals. Each occurrence thus keeps its own recipients, stats, metrics and
 * non-opener resend. Unscheduling or cancelling the scheduled occurrence ends the series, as does
 * cancelling one while it sends (it never finishes). Made at most once per occurrence: the store
 * refuses a second occurrence after the same one, so a finish handled twice makes one.
 */
export class ScheduleNextOccurrence {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly goals: CampaignGoalRepository,
    private readonly jobs: JobQueue,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** The next occurrence of a sent recurring campaign, once; null when there is none to make (or it exists already). */
  execute = async (campaign: Campaign): Promise<Campaign | null> => {
    const { recurringInterval, scheduledAt, scheduledTimezone, recurrenceAnchor } = campaign.schedule;
    if (campaign.status !== "sent" || recurringInterval === null || scheduledAt === null) return null;
    const now = this.clock.now();
    // Campaigns scheduled before anchors were kept recur from their own date.
    const anchor = recurrenceAnchor ?? scheduledAt;
    const at = nextOccurrence({ anchor, interval: recurringInterval, timezone: scheduledTimezone, current: scheduledAt, now });
    const next: Campaign = {
      ...campaign,
      id: this.ids.next("cmp"),
      status: "scheduled",
      schedule: { ...campaign.schedule, scheduledAt: at, recurrenceAnchor: anchor },
      sentAt: null,
      source: null,
      externalId: null,
      previousOccurrenceId: campaign.id,
      send: null,
      createdAt: now,
      updatedAt: now,
    };
    const goals = (await this.goals.list(campaign.companyId, campaign.id)).map((goal) => ({
      ...goal,
      id: this.ids.next("goal"),
      campaignId: next.id,
      createdAt: now,
      updatedAt: now,
    }));
    if (!(await this.campaigns.insertOccurrence(next, goals))) return null;
    // A start job lost here is made up by the sweep of due campaigns.
    await this.jobs.enqueue(startCampaignSendJob(campaign.companyId, next.id, at));
    return next;
  };
}
