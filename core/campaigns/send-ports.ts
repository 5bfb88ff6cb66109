import type { DeliveryJob, NewEmailSend } from "../delivery/ports.js";
import type { JobRequest } from "../ports/job-queue.js";
import type { SegmentDefinition } from "../segments/ports.js";
import { token } from "../shared/token.js";
import type { Subscriber } from "../subscribers/model.js";
import type { CampaignSendState, ExclusionCounts } from "./send-model.js";

/** A frozen recipient as its batch reads it: the contact as it is now, or null once deleted. */
export interface FrozenRecipient {
  /** Its place in the send. */
  readonly position: number;
  readonly subscriberId: string;
  readonly email: string;
  /** In recipients' timezones: not before this; null: at once. */
  readonly dueAt: Date | null;
  readonly contact: Subscriber | null;
}

export interface StartSendInput {
  readonly companyId: string;
  readonly campaignId: string;
  /** Null: the audience can match nobody (its lists and segments are gone). */
  readonly definition: SegmentDefinition | null;
  /** The same audience with contacts of any status (to count the unsubscribed and bounced ones). */
  readonly anyStatus: SegmentDefinition | null;
  readonly maxRecipients: number | null;
  /** In recipients' timezones: when a contact of that timezone (null: none) is due; null: everyone at once. */
  readonly dueAt: ((timezone: string | null) => Date) | null;
  readonly now: Date;
  readonly windowEndsAt: Date | null;
  /** The batch size for the number of contacts frozen. */
  readonly batchSizeFor: (recipients: number) => number;
  /** The job of the first batch. */
  readonly firstBatch: JobRequest;
}

export interface RecordBatchInput {
  readonly companyId: string;
  readonly campaignId: string;
  /** The batch recorded: only while it is still the campaign's next and the campaign is sending. */
  readonly batch: number;
  /** The place the part continues from: recorded only if the campaign is still there (no other worker recorded it). */
  readonly from: number;
  /** The place of the part's last recipient. */
  readonly position: number;
  /** One send per recipient that gets the message (a contact that already has one is skipped). */
  readonly sends: readonly NewEmailSend[];
  readonly delivery: DeliveryJob;
  readonly excluded: Partial<ExclusionCounts>;
  /**
   * On a batch's last part, the job of the batch after it (the batch is then done); null while
   * more of the batch is to come (it stays the campaign's next, from the new position).
   */
  readonly next: JobRequest | null;
  readonly now: Date;
}

/** The send engine's storage: the frozen audience, the send state on the campaign, and the sends of each batch. */
export interface CampaignSendRepository {
  /** Scheduled campaigns of any company whose time has come, oldest first. */
  dueScheduled(now: Date, limit: number): Promise<Array<{ readonly companyId: string; readonly campaignId: string }>>;
  /**
   * In one transaction: scheduled -> sending, the audience's eligible contacts frozen as the
   * recipients, the others counted by reason, and the first batch job. False (nothing changed)
   * when the campaign was no longer scheduled.
   */
  start(input: StartSendInput): Promise<boolean>;
  /** Null before the campaign's first send started. */
  state(companyId: string, campaignId: string): Promise<CampaignSendState | null>;
  /** Up to `limit` recipients after place `position`, in order (of due time, then contact ID). */
  recipientsAfter(companyId: string, campaignId: string, position: number, limit: number): Promise<FrozenRecipient[]>;
  /**
   * In one transaction: a part of a batch: its sends (with their delivery jobs), the campaign's
   * position and counts, and on the batch's last part its next batch number and job. False
   * (nothing changed) when the part was recorded already or the campaign is no longer sending.
   */
  recordBatch(input: RecordBatchInput): Promise<boolean>;
  /**
   * In one transaction: paused -> sending (with a new spread when given), and the job of the
   * campaign's next batch. False (nothing changed) when it was not paused.
   */
  resume(input: {
    readonly companyId: string;
    readonly campaignId: string;
    /** A new spread for what is left (null: the pacing stays as it was). */
    readonly spread: { readonly hours: number; readonly windowEndsAt: Date; readonly batchSize: number } | null;
    readonly job: (batch: number) => JobRequest;
    readonly now: Date;
  }): Promise<boolean>;
  /**
   * Spends `messages` of a throttled scope (a company's campaigns, or the server's) sent now, at
   * `perMinute`: returns when the scope may send again. Shared by every worker.
   */
  reserveSendSlot(scope: string, messages: number, perMinute: number, now: Date): Promise<Date>;
  /** The campaign's real sends still waiting for delivery (held ones included). */
  pendingSends(companyId: string, campaignId: string): Promise<number>;
}
export const CampaignSendRepository = token<CampaignSendRepository>("lifecycle.CampaignSendRepository");

/**
 * The operator's settings of campaign sends: recipients per batch job, and optional send rates
 * in messages per minute, for each company and for the whole server (every company's campaigns
 * together). A null rate: as fast as the relay takes them.
 */
export interface CampaignSendSettings {
  readonly batchSize: number;
  readonly perCompany: number | null;
  readonly perServer: number | null;
}

export const DEFAULT_CAMPAIGN_SENDS: CampaignSendSettings = { batchSize: 500, perCompany: null, perServer: null };

/** The lowest rate that applies, or null when none does. */
export const lowestRate = (settings: CampaignSendSettings): number | null => {
  const rates = [settings.perCompany, settings.perServer].filter((value): value is number => value !== null);
  return rates.length > 0 ? Math.min(...rates) : null;
};
export const CampaignSendSettings = token<CampaignSendSettings>("lifecycle.CampaignSendSettings");
