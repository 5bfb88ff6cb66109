import * as t from "io-ts";
import { BooleanFromString, integerBetween, IsoDate, oneOf, optional, TrimmedNonEmpty } from "../shared/codecs.js";
import { commaIds, commaListOf } from "../shared/comma-list.js";
import { pageFields } from "../shared/page-pagination.js";
import { MAILBOX_PROVIDERS, type MailboxProvider } from "./mailbox-provider.js";
import { EMAIL_TYPES, type MetricsEmailType } from "./model.js";
import { PERIODS, type PeriodName } from "./period.js";
import { CAMPAIGN_EVENT_TYPES } from "./ports.js";

/**
 * Query strings of the metrics routes. Types and enumerations are checked here (422); the
 * rules between fields (start with end, at most 90 days) are the use cases' (400).
 */

const PeriodCodec = oneOf<PeriodName>(PERIODS, "Period");
const EmailTypeCodec = oneOf<MetricsEmailType>(EMAIL_TYPES, "EmailType");
const MailboxProviderCodec = oneOf<MailboxProvider>(MAILBOX_PROVIDERS, "MailboxProvider");

const range = {
  period: optional(PeriodCodec),
  start: optional(IsoDate),
  end: optional(IsoDate),
  includeMachineEngagement: optional(BooleanFromString),
};

/** GET /metrics (alias /stats). */
export const AccountMetricsQuery = t.exact(
  t.partial({ ...range, emailType: optional(EmailTypeCodec), mailboxProvider: optional(MailboxProviderCodec) }),
  "AccountMetricsQuery",
);
export type AccountMetricsQuery = t.TypeOf<typeof AccountMetricsQuery>;

/** GET /metrics/transactional/{idOrSlug} (alias /transactional/{idOrSlug}/stats). */
export const TransactionalMetricsQuery = t.exact(t.partial(range), "TransactionalMetricsQuery");
export type TransactionalMetricsQuery = t.TypeOf<typeof TransactionalMetricsQuery>;

export const TransactionalMetricsPath = t.type({ idOrSlug: TrimmedNonEmpty }, "TransactionalMetricsPath");

/** GET /metrics/campaigns/{campaignId} and .../events. */
export const CampaignMetricsPath = t.type({ campaignId: TrimmedNonEmpty }, "CampaignMetricsPath");

/** GET /metrics/campaigns/{campaignId}: all time unless a range is given. */
export const CampaignMetricsQuery = t.exact(t.partial({ ...range, mailboxProvider: optional(MailboxProviderCodec) }), "CampaignMetricsQuery");
export type CampaignMetricsQuery = t.TypeOf<typeof CampaignMetricsQuery>;

/** Largest page of GET /metrics/campaigns/{campaignId}/events and GET /metrics/emails. */
export const MAX_METRICS_PAGE_LIMIT = 500;

/** GET /metrics/campaigns/{campaignId}/events. */
export const CampaignEventsQuery = t.exact(
  t.partial({ ...range, eventTypes: optional(commaListOf(CAMPAIGN_EVENT_TYPES, "CampaignEventTypes")), ...pageFields(MAX_METRICS_PAGE_LIMIT) }),
  "CampaignEventsQuery",
);
export type CampaignEventsQuery = t.TypeOf<typeof CampaignEventsQuery>;

export const EMAIL_METRICS_SORTS = [
  "sent",
  "delivered",
  "opened",
  "clicked",
  "openRate",
  "clickRate",
  "unsubscribed",
  "conversions",
  "revenue",
  "step",
  "name",
] as const;
export type EmailMetricsSort = (typeof EMAIL_METRICS_SORTS)[number];

/** GET /metrics/emails. */
export const EmailMetricsQuery = t.exact(
  t.partial({
    ...range,
    emailType: optional(oneOf(["campaign", "sequence"] as const, "EmailMetricsType")),
    campaignId: optional(commaIds("CampaignIds", 100)),
    sequenceId: optional(commaIds("SequenceIds", 100)),
    step: optional(integerBetween(1, 1000)),
    sort: optional(oneOf(EMAIL_METRICS_SORTS, "EmailMetricsSort")),
    order: optional(oneOf(["asc", "desc"] as const, "SortOrder")),
    ...pageFields(MAX_METRICS_PAGE_LIMIT),
  }),
  "EmailMetricsQuery",
);
export type EmailMetricsQuery = t.TypeOf<typeof EmailMetricsQuery>;
