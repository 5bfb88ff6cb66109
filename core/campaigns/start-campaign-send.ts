import type { WorkOf } from "../jobs/job-definition.js";
import type { Clock } from "../ports/clock.js";
import type { SegmentRepository } from "../segments/ports.js";
import type { CampaignAudienceQueries, CampaignRepository } from "./ports.js";
import { withAnyStatus } from "./any-status.js";
import { dueInZone, earliestDue } from "./recipient-time.js";
import { resolveAudience } from "./resolve-audience.js";
import { sendCampaignBatchJob, type StartCampaignSendJob } from "./send-jobs.js";
import { batchSizeFor } from "./send-model.js";
import { lowestRate, type CampaignSendSettings, type CampaignSendRepository } from "./send-ports.js";
import { transition } from "./transitions.js";

const HOUR_MS = 3_600_000;
/** Due campaigns one sweep starts at most (the next sweep takes the rest). */
const SWEEP_LIMIT = 100;

/**
 * A scheduled campaign whose time has come (in recipients' timezones: where it is due first)
 * starts sending: its audience is resolved as the
 * audience route shows it, then frozen (a contact added or subscribed later is not included),
 * the contacts that may not get it counted by reason, and the first batch queued. A start job
 * that comes late (unscheduled, rescheduled later, cancelled, started already) does nothing.
 */
export class StartCampaignSend {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly sends: CampaignSendRepository,
    private readonly audience: { readonly segments: SegmentRepository; readonly audience: CampaignAudienceQueries },
    private readonly docsUrl: string,
    private readonly settings: CampaignSendSettings,
    private readonly clock: Clock,
  ) {}

  runJob = async ({ companyId, payload }: WorkOf<typeof StartCampaignSendJob>): Promise<void> => {
    await this.start(companyId, payload.campaignId);
  };

  /** The recurring safety net: starts every due campaign that no start job has started. */
  sweep = async (): Promise<number> => {
    let started = 0;
    const failures: string[] = [];
    for (const due of await this.sends.dueScheduled(this.clock.now(), SWEEP_LIMIT)) {
      try {
        if (await this.start(due.companyId, due.campaignId)) started += 1;
      } catch (error) {
        // One campaign that cannot start holds up no other (its own start job reports it too).
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
    if (failures.length > 0) throw new Error(`${failures.length} due campaigns could not start; the first: ${failures[0]}`);
    return started;
  };

  /** True when this call started the send. */
  start = async (companyId: string, campaignId: string): Promise<boolean> => {
    const campaign = await this.campaigns.find(companyId, campaignId);
    if (!campaign || transition(campaign.status, "start")._tag === "Left") return false;
    const now = this.clock.now();
    const { scheduledAt, spreadOverHours, sendInRecipientTimezone, scheduledTimezone } = campaign.schedule;
    const zone = sendInRecipientTimezone ? scheduledTimezone : null;
    if (!scheduledAt || (zone ? earliestDue(scheduledAt, zone) : scheduledAt).getTime() > now.getTime()) return false;
    const resolved = await resolveAudience(this.audience, { companyId, campaignId, target: campaign.targetLists, now, docsUrl: this.docsUrl });
    // The audience was valid when scheduled; one that no longer is cannot be sent (the job fails and says why).
    if (resolved._tag === "Left") throw new Error(`campaign ${campaignId} cannot start: ${resolved.left.message}`);
    return this.sends.start({
      companyId,
      campaignId,
      definition: resolved.right.definition,
      anyStatus: resolved.right.definition && withAnyStatus(resolved.right.definition),
      maxRecipients: campaign.maxRecipients,
      dueAt: zone ? (timezone) => dueInZone(scheduledAt, zone, timezone) : null,
      now,
      windowEndsAt: spreadOverHours !== null ? new Date(now.getTime() + spreadOverHours * HOUR_MS) : null,
      batchSizeFor: (recipients) => batchSizeFor(recipients, { batchSize: this.settings.batchSize, spreadOverHours, perMinute: lowestRate(this.settings) }),
      firstBatch: sendCampaignBatchJob(companyId, campaignId, 0, now),
    });
  };
}
