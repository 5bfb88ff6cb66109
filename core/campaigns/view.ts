import * as t from "io-ts";
import { EmailBlocksView } from "../emails/view.js";
import { isBlocksBody } from "../emails/model.js";
import { StatsView } from "../metrics/view.js";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import { TargetListsCodec } from "./commands.js";
import { StoredComputedList } from "./computed-lists.js";
import { CAMPAIGN_STATUSES, RECURRING_INTERVALS, type Campaign } from "./model.js";
import { EXCLUSION_REASONS, type ExclusionReason } from "./send-model.js";

const summary = {
  id: Id,
  name: t.string,
  subject: NullableString,
  previewText: NullableString,
  status: oneOf(CAMPAIGN_STATUSES, "CampaignStatus"),
  /** The channel: only email here. */
  type: t.literal("email"),
  /** The body is kept on the campaign, not in a separate template record: always null. */
  emailId: t.null,
  /** The product's presets are not offered here: always null. */
  emailPreset: t.null,
  labels: t.readonlyArray(t.string),
  trackingCode: NullableString,
  /** No approval workflow here: always null. */
  rejectionComment: t.null,
  scheduledAt: NullableTimestamp,
  scheduledTimezone: NullableString,
  sendInRecipientTimezone: t.boolean,
  sendTimeOptimization: t.boolean,
  sendTimeWindowHours: t.union([t.number, t.null]),
  spreadOverHours: t.union([t.number, t.null]),
  recurringInterval: t.union([oneOf(RECURRING_INTERVALS, "RecurringInterval"), t.null]),
  /** An occurrence of a recurring campaign: the occurrence whose finished send scheduled it (which may have been deleted since); null otherwise. */
  previousOccurrenceId: NullableString,
  /** Why the send engine paused the campaign (its sender or content can no longer be sent); null for a user's pause and any other status. */
  pauseReason: NullableString,
  sentAt: NullableTimestamp,
  /** Where an imported campaign came from (`mailchimp`); null for campaigns made here. */
  source: NullableString,
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

/** Where a send stands: the frozen audience, what went out, what is left, and who was left out and why. */
const CampaignProgressView = view(
  {
    startedAt: Timestamp,
    /** Contacts frozen into the send when it started (after the exclusions then). */
    recipients: t.number,
    /** Handed to the email pipeline so far. */
    queued: t.number,
    /** Handed to the relay (as `stats.sent`). */
    sent: t.number,
    /** Messages still to go: recipients not reached by a batch yet, and queued ones not yet sent. */
    remaining: t.number,
    excluded: view(Object.fromEntries(EXCLUSION_REASONS.map((reason) => [reason, t.number])) as Record<ExclusionReason, t.NumberC>),
  },
  "CampaignProgress",
);

/** A campaign in a list (compat-reference §11 summary fields). */
export const CampaignSummaryView = view(summary, "CampaignSummary");
export type CampaignSummaryView = t.TypeOf<typeof CampaignSummaryView>;

/** One campaign: the summary, its content, audience, identity and stats. */
export const CampaignView = view(
  {
    ...summary,
    html: NullableString,
    blocks: t.union([EmailBlocksView, t.null]),
    targetLists: t.union([TargetListsCodec, t.null]),
    computedLists: t.readonlyArray(StoredComputedList),
    campaignData: t.record(t.string, t.unknown),
    /** The live public share link (POST /campaigns/{id}/share-link), on GET /campaigns/{id}; null otherwise. */
    shareUrl: NullableString,
    senderProfileId: NullableString,
    fromEmail: NullableString,
    fromName: NullableString,
    replyProfileId: NullableString,
    replyTo: NullableString,
    replyToName: NullableString,
    ccEmails: t.readonlyArray(t.string),
    bccEmails: t.readonlyArray(t.string),
    maxRecipients: t.union([t.number, t.null]),
    /** From the campaign's sends, test sends left out: zeros until it is sent. */
    stats: StatsView,
    /** Null until the send starts. */
    progress: t.union([CampaignProgressView, t.null]),
  },
  "Campaign",
);
export type CampaignView = t.TypeOf<typeof CampaignView>;

export const toCampaignSummaryView = (campaign: Campaign): CampaignSummaryView => ({
  id: campaign.id,
  name: campaign.name,
  subject: campaign.subject,
  previewText: campaign.previewText,
  status: campaign.status,
  type: "email",
  emailId: null,
  emailPreset: null,
  labels: campaign.labels,
  trackingCode: campaign.trackingCode,
  rejectionComment: null,
  scheduledAt: campaign.schedule.scheduledAt?.toISOString() ?? null,
  scheduledTimezone: campaign.schedule.scheduledTimezone,
  sendInRecipientTimezone: campaign.schedule.sendInRecipientTimezone,
  sendTimeOptimization: campaign.schedule.sendTimeOptimization,
  sendTimeWindowHours: campaign.schedule.sendTimeWindowHours,
  spreadOverHours: campaign.schedule.spreadOverHours,
  recurringInterval: campaign.schedule.recurringInterval,
  previousOccurrenceId: campaign.previousOccurrenceId ?? null,
  pauseReason: campaign.status === "paused" ? (campaign.pauseReason ?? null) : null,
  sentAt: campaign.sentAt?.toISOString() ?? null,
  source: campaign.source,
  createdAt: campaign.createdAt.toISOString(),
  updatedAt: campaign.updatedAt.toISOString(),
});

export const toCampaignView = (campaign: Campaign, stats: StatsView, shareUrl: string | null = null): CampaignView => ({
  ...toCampaignSummaryView(campaign),
  html: campaign.body && !isBlocksBody(campaign.body) ? campaign.body.html : null,
  blocks: campaign.body && isBlocksBody(campaign.body) ? campaign.body.blocks : null,
  targetLists: campaign.targetLists,
  computedLists: campaign.computedLists,
  campaignData: campaign.campaignData,
  shareUrl,
  ...campaign.identity,
  ccEmails: campaign.ccEmails,
  bccEmails: campaign.bccEmails,
  maxRecipients: campaign.maxRecipients,
  stats,
  progress: progressOf(campaign, stats.sent),
});

/** A copy of a campaign (a draft) has no send of its own, whatever it was copied from. */
function progressOf(campaign: Campaign, sent: number): t.TypeOf<typeof CampaignProgressView> | null {
  const send = campaign.send;
  if (!send || campaign.status === "draft" || campaign.status === "scheduled") return null;
  const unbatched = campaign.status === "sending" || campaign.status === "paused" ? send.recipients - send.processed : 0;
  const remaining = campaign.status === "sent" ? 0 : Math.max(0, unbatched) + Math.max(0, send.queued - sent);
  return { startedAt: send.startedAt.toISOString(), recipients: send.recipients, queued: send.queued, sent, remaining, excluded: { ...send.excluded } };
}
