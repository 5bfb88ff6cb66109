import {
  AccountMetricsQuery,
  CampaignEventsQuery,
  CampaignMetricsPath,
  CampaignMetricsQuery,
  EMAIL_METRICS_SORTS,
  EmailMetricsQuery,
  MAX_METRICS_PAGE_LIMIT,
  TransactionalMetricsPath,
  TransactionalMetricsQuery,
} from "../../../core/metrics/commands.js";
import { CampaignEventsView, CampaignMetricsView, EmailMetricsView } from "../../../core/metrics/email-metrics-views.js";
import { GetCampaignMetrics } from "../../../core/metrics/get-campaign-metrics.js";
import { DEFAULT_EVENTS_LIMIT, ListCampaignEvents } from "../../../core/metrics/list-campaign-events.js";
import { DEFAULT_EMAILS_LIMIT, ListEmailMetrics } from "../../../core/metrics/list-email-metrics.js";
import { CAMPAIGN_EVENT_TYPES } from "../../../core/metrics/ports.js";
import { GetAccountMetrics } from "../../../core/metrics/get-account-metrics.js";
import { GetTransactionalMetrics } from "../../../core/metrics/get-transactional-metrics.js";
import { MAILBOX_PROVIDERS } from "../../../core/metrics/mailbox-provider.js";
import { CLICKED_LINKS_LIMIT } from "../../../core/metrics/metrics-report.js";
import { MAX_RANGE_DAYS } from "../../../core/metrics/period.js";
import { AccountMetricsView, TransactionalMetricsView } from "../../../core/metrics/view.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

const RULES =
  "The period is a funnel over the sends made in it (test sends excluded): every count is of those sends, whatever the time of its event; opened and clicked count each send once. " +
  `start and end (ISO 8601) go together (400), span at most ${MAX_RANGE_DAYS} days (400) and win over period. ` +
  "Rates are percentages with two decimals over rateDenominator: delivered (sends with a delivery event or engagement), or sent when no send of the period has a delivery event; deliveryRate and bounceRate are over sent. " +
  "includeMachineEngagement=true counts scanner, preview and prefetch opens and clicks too; engagementBreakdown always gives both. " +
  `bounceBreakdown counts each bounced send once by its latest bounce; clickedLinks lists the ${CLICKED_LINKS_LIMIT} links clicked by the most sends (percentage of clicking sends).`;

const account = (getAccountMetrics: GetAccountMetrics, path: string, summary: string, aliasOf?: string) =>
  defineRoute({
    method: "get",
    path,
    ...(aliasOf ? { aliasOf } : {}),
    tag: "Metrics",
    scopes: ["analytics:read"],
    summary: `${summary}. period defaults to 7d; emailType (campaign, transactional, sequence) and mailboxProvider (${MAILBOX_PROVIDERS.join(", ")}) narrow the sends (a provider filter reports replies as 0). subscriberCount and activeSubscriberCount ignore the period. ${RULES}`,
    query: AccountMetricsQuery,
    response: AccountMetricsView,
    errors: [400, 422],
    handle: async ({ input, actor }) => getAccountMetrics.execute(actor, input.query),
  });

const transactional = (getTransactionalMetrics: GetTransactionalMetrics, path: string, summary: string, aliasOf?: string) =>
  defineRoute({
    method: "get",
    path,
    ...(aliasOf ? { aliasOf } : {}),
    tag: "Metrics",
    scopes: ["analytics:read"],
    summary: `${summary}, by ID or API slug; all time unless period or start and end are given. 404 'Transactional email not found' (also once deleted). ${RULES}`,
    params: TransactionalMetricsPath,
    query: TransactionalMetricsQuery,
    response: TransactionalMetricsView,
    errors: [400, 404, 422],
    handle: async ({ input, actor }) => getTransactionalMetrics.execute(actor, input.params.idOrSlug, input.query),
  });

/**
 * Metrics (spec "Metrics", compat-reference §16). The alias /transactional/:idOrSlug/stats is
 * mounted before the transactional routes so /transactional/:idOrSlug does not take it.
 */
export const metricsRoutes = routeModule(
  {
    getAccountMetrics: GetAccountMetrics,
    getTransactionalMetrics: GetTransactionalMetrics,
    getCampaignMetrics: GetCampaignMetrics,
    listCampaignEvents: ListCampaignEvents,
    listEmailMetrics: ListEmailMetrics,
  },
  (uses) => [
    account(uses.getAccountMetrics, "/metrics", "Email metrics of the account"),
    account(uses.getAccountMetrics, "/stats", "Email metrics of the account (alias of GET /metrics)", "/metrics"),
    transactional(uses.getTransactionalMetrics, "/metrics/transactional/:idOrSlug", "Email metrics of one saved transactional email"),
    transactional(
      uses.getTransactionalMetrics,
      "/transactional/:idOrSlug/stats",
      "Email metrics of one saved transactional email (alias of GET /metrics/transactional/{idOrSlug})",
      "/metrics/transactional/:idOrSlug",
    ),
    defineRoute({
      method: "get",
      path: "/metrics/campaigns/:campaignId",
      tag: "Metrics",
      scopes: ["analytics:read"],
      summary:
        `Email metrics of one campaign's sends (the same figures as the campaign's stats); all time unless period or start and end are given; mailboxProvider (${MAILBOX_PROVIDERS.join(", ")}) narrows the sends (replies then 0). ` +
        `goals: each active campaign goal with its conversions over the same sends and conversionRate; polls and recommendations are always empty here (no poll blocks or recommendations on this server). 404 'Campaign not found' (also for another company's campaign). ${RULES}`,
      params: CampaignMetricsPath,
      query: CampaignMetricsQuery,
      response: CampaignMetricsView,
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.getCampaignMetrics.execute(actor, input.params.campaignId, input.query),
    }),
    defineRoute({
      method: "get",
      path: "/metrics/campaigns/:campaignId/events",
      tag: "Metrics",
      scopes: ["analytics:read"],
      summary:
        `The events of one campaign's sends (test sends never), newest first: eventTypes, a comma list of ${CAMPAIGN_EVENT_TYPES.join(", ")} (default delivery); ` +
        `all time unless period or start and end (of the events' times; together, at most ${MAX_RANGE_DAYS} days: 400) are given; page and limit 1-${MAX_METRICS_PAGE_LIMIT} (default ${DEFAULT_EVENTS_LIMIT}). ` +
        "Scanner, preview and prefetch opens and clicks are listed only with includeMachineEngagement=true (machine says which). 404 'Campaign not found'.",
      params: CampaignMetricsPath,
      query: CampaignEventsQuery,
      response: CampaignEventsView,
      errors: [400, 404, 422],
      handle: async ({ input, actor }) => uses.listCampaignEvents.execute(actor, input.params.campaignId, input.query),
    }),
    defineRoute({
      method: "get",
      path: "/metrics/emails",
      tag: "Metrics",
      scopes: ["analytics:read"],
      summary:
        "Metrics per email: one row per campaign and per sequence email step with sends in the period (all time unless period or start and end are given; test sends never), with its stats and the totals of every matching row. " +
        "emailType (campaign, sequence); campaignId or sequenceId (comma lists, not both: 400); step (a sequence's email number, 1-1000); " +
        `sort (${EMAIL_METRICS_SORTS.join(", ")}; default sent; conversions and revenue are not tracked here: 400), order (desc default, asc); page and limit 1-${MAX_METRICS_PAGE_LIMIT} (default ${DEFAULT_EMAILS_LIMIT}). ` +
        "Opens and clicks are people's (machine engagement left out).",
      query: EmailMetricsQuery,
      response: EmailMetricsView,
      errors: [400, 422],
      handle: async ({ input, actor }) => uses.listEmailMetrics.execute(actor, input.query),
    }),
  ],
);
