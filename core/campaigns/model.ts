import type { EmailBody } from "../emails/model.js";
import type { ComputedList } from "./computed-lists.js";
import type { FilterLeafInput, JoinOperator } from "../segments/model.js";
import { notFound } from "../shared/errors.js";
import type { CampaignSendState } from "./send-model.js";

/**
 * Campaigns (compat-reference §11): one email to an audience, sent at a scheduled time. Drafts
 * made by a migration from another provider are ordinary campaigns (`source` names where they
 * came from); their subject or body may be missing until someone writes one.
 */

export const CAMPAIGN_STATUSES = ["draft", "scheduled", "sending", "sent", "paused", "cancelled"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const RECURRING_INTERVALS = ["weekly", "monthly"] as const;
export type RecurringInterval = (typeof RECURRING_INTERVALS)[number];

/** One rule of an audience: everyone, members of lists, members of segments, or contacts matching filters. */
export type AudienceRule =
  | { readonly type: "all" }
  | { readonly type: "lists"; readonly listIds: string[] }
  | { readonly type: "segments"; readonly segmentIds: string[] }
  | { readonly type: "filtered"; readonly filters: FilterLeafInput[]; readonly filterJoinOperator?: JoinOperator | undefined };

export const TARGET_TYPES = ["all", "lists", "segment", "filtered", "rules"] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/** The audience as the caller wrote it (compat `targetLists`), kept as written and read back the same (arrays as decoded). */
export interface TargetLists {
  readonly type: TargetType;
  readonly listIds?: string[] | undefined;
  readonly segmentId?: string | undefined;
  readonly filters?: FilterLeafInput[] | undefined;
  readonly filterJoinOperator?: JoinOperator | undefined;
  readonly include?: AudienceRule[] | undefined;
  readonly exclude?: AudienceRule[] | undefined;
}

/** Who the campaign is from and whom replies go to: a saved profile, or an address written on the campaign. */
export interface CampaignIdentity {
  readonly senderProfileId: string | null;
  readonly fromEmail: string | null;
  readonly fromName: string | null;
  readonly replyProfileId: string | null;
  readonly replyTo: string | null;
  readonly replyToName: string | null;
}

export const NO_IDENTITY: CampaignIdentity = { senderProfileId: null, fromEmail: null, fromName: null, replyProfileId: null, replyTo: null, replyToName: null };

/** When and how a scheduled campaign goes out. */
export interface CampaignSchedule {
  readonly scheduledAt: Date | null;
  readonly scheduledTimezone: string | null;
  readonly sendInRecipientTimezone: boolean;
  readonly spreadOverHours: number | null;
  readonly recurringInterval: RecurringInterval | null;
  /**
   * With recurringInterval: the series' first scheduledAt. Every occurrence falls on its weekday
   * (weekly) or day of month (monthly, the month's last day when it is shorter), at its
   * wall-clock time in scheduledTimezone (UTC without one).
   */
  readonly recurrenceAnchor: Date | null;
  readonly sendTimeOptimization: boolean;
  readonly sendTimeWindowHours: number | null;
}

export const NO_SCHEDULE: CampaignSchedule = {
  scheduledAt: null,
  scheduledTimezone: null,
  sendInRecipientTimezone: false,
  spreadOverHours: null,
  recurringInterval: null,
  recurrenceAnchor: null,
  sendTimeOptimization: false,
  sendTimeWindowHours: null,
};

export interface Campaign {
  readonly id: string;
  readonly companyId: string;
  readonly name: string;
  readonly subject: string | null;
  readonly previewText: string | null;
  /** Null only on an imported draft that came without a body. */
  readonly body: EmailBody | null;
  readonly trackingCode: string | null;
  readonly labels: readonly string[];
  /** Null: no targeting set, which at send time means every active contact. */
  readonly targetLists: TargetLists | null;
  readonly identity: CampaignIdentity;
  readonly ccEmails: readonly string[];
  readonly bccEmails: readonly string[];
  /** Campaign-wide merge values. */
  readonly campaignData: Readonly<Record<string, unknown>>;
  /** Per-recipient picks from campaignData's arrays, read as `computed.{key}`. */
  readonly computedLists: readonly ComputedList[];
  readonly maxRecipients: number | null;
  readonly status: CampaignStatus;
  readonly schedule: CampaignSchedule;
  /** When delivery ended (or, for an archived campaign, when it was sent elsewhere). */
  readonly sentAt: Date | null;
  /** The provider an imported campaign came from (`mailchimp`) and its ID there; null for campaigns made here. */
  readonly source: string | null;
  readonly externalId: string | null;
  /** An occurrence of a recurring campaign: the occurrence whose finished send scheduled it (written once, when it is made). */
  readonly previousOccurrenceId?: string | null;
  /** Why the send engine paused it (its sender or content can no longer be sent); null or absent otherwise, cleared by a resume. */
  readonly pauseReason?: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /**
   * The send's progress, kept by the send engine alone (saving a campaign never writes it):
   * null or absent until a send started.
   */
  readonly send?: CampaignSendState | null;
}

export const CAMPAIGN_NOT_FOUND = notFound("Campaign not found");
