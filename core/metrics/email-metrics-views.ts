import * as t from "io-ts";
import { CampaignSummaryView } from "../campaigns/view.js";
import { oneOf } from "../shared/codecs.js";
import { PagePaginationView } from "../shared/page-pagination.js";
import { Id, NullableString, Timestamp, view, viewWithOptional } from "../shared/view-fields.js";
import { EMAIL_METRICS_SORTS } from "./commands.js";
import { MAILBOX_PROVIDERS } from "./mailbox-provider.js";
import { CAMPAIGN_EVENT_TYPES } from "./ports.js";
import { creditedStatsView, report, StatsView } from "./view.js";

/** GET /metrics/campaigns/{campaignId}: one campaign's report; mailboxProvider only when the query narrowed by it. */
export const CampaignMetricsView = viewWithOptional(
  {
    ...report,
    stats: creditedStatsView("CampaignStats"),
    campaign: CampaignSummaryView,
    polls: t.readonlyArray(t.unknown),
    recommendations: t.record(t.string, t.unknown),
    goals: t.readonlyArray(
      view(
        { id: Id, name: t.string, triggerEventName: t.string, attributionWindowHours: t.number, conversions: t.number, conversionRate: t.number },
        "GoalConversions",
      ),
    ),
  },
  { mailboxProvider: oneOf(MAILBOX_PROVIDERS, "MailboxProvider") },
  "CampaignMetrics",
);

/** One event of GET /metrics/campaigns/{campaignId}/events. */
export const CampaignEventView = view(
  {
    id: Id,
    emailSendId: Id,
    eventType: oneOf(CAMPAIGN_EVENT_TYPES, "CampaignEventType"),
    eventTime: Timestamp,
    recipientEmail: t.string,
    subscriberId: NullableString,
    url: NullableString,
    bounceType: NullableString,
    bounceSubType: NullableString,
    machine: t.boolean,
  },
  "CampaignEvent",
);

export const CampaignEventsView = view({ events: t.readonlyArray(CampaignEventView), pagination: PagePaginationView }, "CampaignEvents");

const EmailMetricsRowView = view(
  {
    emailType: oneOf(["campaign", "sequence"] as const, "EmailMetricsType"),
    emailId: NullableString,
    name: NullableString,
    campaignId: NullableString,
    sequenceId: NullableString,
    sequenceName: NullableString,
    automationNodeId: NullableString,
    step: t.union([t.number, t.null]),
    stats: StatsView,
    conversions: t.number,
    revenueCents: t.number,
  },
  "EmailMetricsRow",
);

/** GET /metrics/emails. */
export const EmailMetricsView = view(
  {
    period: report.period,
    emails: t.readonlyArray(EmailMetricsRowView),
    totals: t.intersection([StatsView, view({ emails: t.number, conversions: t.number, revenueCents: t.number })]),
    pagination: PagePaginationView,
    sort: oneOf(EMAIL_METRICS_SORTS, "EmailMetricsSort"),
    order: oneOf(["asc", "desc"] as const, "SortOrder"),
  },
  "EmailMetrics",
);
