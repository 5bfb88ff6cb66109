import type { WorkOf } from "../jobs/job-definition.js";
import type { Clock } from "../ports/clock.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Campaign } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import type { ScheduleNextOccurrence } from "./schedule-next-occurrence.js";
import { finishCampaignSendJob, type FinishCampaignSendJob } from "./send-jobs.js";
import type { CampaignSendRepository } from "./send-ports.js";
import { transition } from "./transitions.js";

/** How long the n-th look waits for deliveries: 1 s, doubling, at most 5 s (one cheap count). */
const lookAgainAfterMs = (check: number): number => Math.min(5_000, 1_000 * 2 ** Math.min(check, 3));

/**
 * After its last batch a campaign is `sent` (sentAt: the end of delivery) once none of its sends
 * waits for the relay; sends held while the company's sending is paused keep it `sending` until
 * they go out. A recurring campaign's next occurrence is scheduled then (also when a finish job
 * runs again after the campaign was saved `sent`, so a worker that died in between loses none).
 */
export class FinishCampaignSend {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly sends: CampaignSendRepository,
    private readonly jobs: JobQueue,
    private readonly nextOccurrence: ScheduleNextOccurrence,
    private readonly clock: Clock,
  ) {}

  runJob = async ({ companyId, payload }: WorkOf<typeof FinishCampaignSendJob>): Promise<void> => {
    const campaign = await this.campaigns.find(companyId, payload.campaignId);
    if (!campaign) return;
    if (campaign.status === "sent") {
      await this.nextOccurrence.execute(campaign);
      return;
    }
    const status = transition(campaign.status, "finish");
    if (status._tag === "Left") return;
    const now = this.clock.now();
    if ((await this.sends.pendingSends(companyId, campaign.id)) > 0) {
      await this.jobs.enqueue(finishCampaignSendJob(companyId, campaign.id, payload.check + 1, new Date(now.getTime() + lookAgainAfterMs(payload.check))));
      return;
    }
    // A pause or cancel in between wins: the save only applies while the campaign is still sending.
    const sent: Campaign = { ...campaign, status: status.right, sentAt: now, updatedAt: now };
    if (await this.campaigns.save(sent, campaign.status)) await this.nextOccurrence.execute(sent);
  };
}
