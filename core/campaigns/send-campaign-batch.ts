import type { NewEmailSend } from "../delivery/ports.js";
import { deliverEmailsJob } from "../delivery/queue-email-send.js";
import type { WorkOf } from "../jobs/job-definition.js";
import { mailboxProviderOf } from "../metrics/mailbox-provider.js";
import { chunksOf } from "../shared/chunks.js";
import type { OptInRepository } from "../opt-in/ports.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { JobQueue } from "../ports/job-queue.js";
import { ok, type Result } from "../shared/result.js";
import type { SuppressionReason } from "../suppressions/model.js";
import type { SuppressionRepository } from "../suppressions/ports.js";
import type { CampaignMessage, PrepareCampaignMessage } from "./campaign-message.js";
import type { Campaign } from "./model.js";
import type { CampaignRepository } from "./ports.js";
import { finishCampaignSendJob, unkeyedBatchJob, sendCampaignBatchJob, type SendCampaignBatchJob } from "./send-jobs.js";
import { exclusionAtBatch, nextBatchAt, type ExclusionReason } from "./send-model.js";
import type { CampaignSendSettings, CampaignSendRepository, FrozenRecipient } from "./send-ports.js";

/**
 * Recipients rendered and recorded together. A batch goes in parts so that only a part's copies
 * are held at once: a whole batch's outlived the young generation, and the old one, collected
 * only when it has grown to four times what lives in it, swelled the process by some 200 MB.
 */
const RECIPIENTS_PER_PART = 50;

/** The throttled scopes of a company's campaign sends: its own, and the server's. */
const throttles = (companyId: string, rate: CampaignSendSettings): Array<{ scope: string; perMinute: number }> => [
  ...(rate.perCompany !== null ? [{ scope: `company:${companyId}`, perMinute: rate.perCompany }] : []),
  ...(rate.perServer !== null ? [{ scope: "server", perMinute: rate.perServer }] : []),
];

/**
 * One batch of a sending campaign: the next recipients in order, each checked again
 * (one who unsubscribed, bounced, was suppressed or deleted since the start is skipped and
 * counted), rendered from content prepared once for the batch, and handed to the email pipeline
 * in parts, each with the position and counts in one transaction, the last also with the next
 * batch's job. A paused or cancelled campaign, or a part recorded already (a retried job, another
 * worker), queues nothing more; a job retried after a crash goes on from the last part recorded;
 * the unique send per campaign and contact backs this up against any race. After the last batch
 * the campaign finishes once its deliveries are done.
 */
export class SendCampaignBatch {
  constructor(
    private readonly campaigns: CampaignRepository,
    private readonly sends: CampaignSendRepository,
    private readonly prepare: PrepareCampaignMessage,
    private readonly suppressions: SuppressionRepository,
    private readonly optIns: OptInRepository,
    private readonly jobs: JobQueue,
    private readonly settings: CampaignSendSettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  runJob = async ({ companyId, payload }: WorkOf<typeof SendCampaignBatchJob>): Promise<void> => {
    const { campaignId, batch } = payload;
    const campaign = await this.campaigns.find(companyId, campaignId);
    if (!campaign || campaign.status !== "sending") return;
    const state = await this.sends.state(companyId, campaignId);
    if (!state || state.batch !== batch) return;
    const next = await this.sends.recipientsAfter(companyId, campaignId, state.position, state.batchSize);
    const now = this.clock.now();
    if (next.length === 0) {
      await this.jobs.enqueue(finishCampaignSendJob(companyId, campaignId, 0, now));
      return;
    }
    // In recipients' timezones (ordered by due time) the batch takes those whose time has come, or waits for the first.
    const later = next.findIndex((recipient) => recipient.dueAt !== null && recipient.dueAt.getTime() > now.getTime());
    const recipients = later === -1 ? next : next.slice(0, later);
    const nextDue = later === -1 ? null : next[later]!.dueAt;
    if (recipients.length === 0) {
      await this.jobs.enqueue(unkeyedBatchJob(companyId, campaignId, batch, nextDue!));
      return;
    }

    const message = await this.prepare.execute(campaign);
    if (message._tag === "Left") return this.pauseUnsendable(campaign, message.left.message, now);
    const emails = recipients.flatMap((recipient) => (recipient.contact ? [recipient.contact.email] : []));
    const suppressed = new Map((await this.suppressions.findMany(companyId, emails)).map((suppression) => [suppression.email, suppression.reason]));
    const unconfirmed = await this.optIns.unconfirmedAmong(companyId, emails);

    const left = Math.max(0, state.recipients - state.processed - recipients.length);
    let at = nextBatchAt({ now, windowEndsAt: state.windowEndsAt, batchesLeft: Math.ceil(left / state.batchSize) });
    if (nextDue && nextDue.getTime() > at.getTime()) at = nextDue;
    // A throttle spreads batches: the next waits until every scope may send again.
    for (const { scope, perMinute } of throttles(companyId, this.settings)) {
      const free = await this.sends.reserveSendSlot(scope, recipients.length, perMinute, now);
      if (free.getTime() > at.getTime()) at = free;
    }

    const parts = chunksOf(recipients, RECIPIENTS_PER_PART);
    let from = state.position;
    for (const [index, part] of parts.entries()) {
      const rendered = await this.sendsOf(part, { companyId, campaignId, message: message.right, suppressed, unconfirmed, now });
      // The content is the same for everyone: what fails for one fails for all.
      if (rendered._tag === "Left") return this.pauseUnsendable(campaign, `its content cannot be rendered: ${rendered.left.message}`, now);
      const position = part[part.length - 1]!.position;
      const recorded = await this.sends.recordBatch({
        companyId,
        campaignId,
        batch,
        from,
        position,
        sends: rendered.right.sends,
        delivery: deliverEmailsJob,
        excluded: rendered.right.excluded,
        next: index === parts.length - 1 ? sendCampaignBatchJob(companyId, campaignId, batch + 1, left === 0 ? now : at) : null,
        now,
      });
      // Paused, cancelled, or recorded by another worker meanwhile: the rest is not this job's.
      if (!recorded) return;
      from = position;
    }
  };

  /** A part's sends, each recipient checked again (those left out counted by reason) and rendered. */
  private async sendsOf(
    part: readonly FrozenRecipient[],
    batch: {
      readonly companyId: string;
      readonly campaignId: string;
      readonly message: CampaignMessage;
      readonly suppressed: ReadonlyMap<string, SuppressionReason>;
      readonly unconfirmed: ReadonlySet<string>;
      readonly now: Date;
    },
  ): Promise<Result<{ sends: NewEmailSend[]; excluded: Partial<Record<ExclusionReason, number>> }>> {
    const { companyId, campaignId, message, suppressed, unconfirmed, now } = batch;
    const excluded: Partial<Record<ExclusionReason, number>> = {};
    const sends: NewEmailSend[] = [];
    for (const { contact } of part) {
      const reason = exclusionAtBatch({
        contactStatus: contact?.status ?? null,
        suppression: contact ? (suppressed.get(contact.email) ?? null) : null,
        unconfirmed: contact ? unconfirmed.has(contact.email) : false,
      });
      if (reason !== null || !contact) {
        excluded[reason ?? "deleted"] = (excluded[reason ?? "deleted"] ?? 0) + 1;
        continue;
      }
      const id = this.ids.next("send");
      const rendered = await message.renderFor(contact, id);
      if (rendered._tag === "Left") return rendered;
      sends.push({
        id,
        companyId,
        subscriberId: contact.id,
        recipientEmail: contact.email,
        emailType: "campaign",
        campaignId,
        subject: rendered.right.subject,
        sender: message.sender,
        replyTo: message.replyTo,
        html: rendered.right.html,
        text: rendered.right.text,
        mailboxProvider: mailboxProviderOf(contact.email),
        isTest: false,
        openTracking: message.openTracking,
        clickTracking: message.clickTracking,
        payload: { unsubscribeUrl: rendered.right.unsubscribeUrl },
        createdAt: now,
      });
    }
    return ok({ sends, excluded });
  }

  /**
   * A campaign whose sender or content can no longer be sent (a domain unverified since it was
   * scheduled, a template that fails) is paused with the reason: retrying the batch cannot help,
   * and once the cause is fixed a resume takes it on from this batch.
   */
  private async pauseUnsendable(campaign: Campaign, reason: string, now: Date): Promise<void> {
    await this.campaigns.save({ ...campaign, status: "paused", pauseReason: reason, updatedAt: now }, "sending");
  }
}
