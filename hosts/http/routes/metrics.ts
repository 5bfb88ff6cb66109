import { AccountMetricsQuery, TransactionalMetricsPath, TransactionalMetricsQuery } from "../../../core/metrics/commands.js";
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

const account = (getAccountMetrics: GetAccountMetrics, path: string, summary: string) =>
  defineRoute({
    method: "get",
    path,
    tag: "Metrics",
    scopes: ["analytics:read"],
    summary: `${summary}. period defaults to 7d; emailType (campaign, transactional, sequence) and mailboxProvider (${MAILBOX_PROVIDERS.join(", ")}) narrow the sends (a provider filter reports replies as 0). subscriberCount and activeSubscriberCount ignore the period. ${RULES}`,
    query: AccountMetricsQuery,
    response: AccountMetricsView,
    errors: [400, 422],
    handle: async ({ input, actor }) => getAccountMetrics.execute(actor, input.query),
  });

const transactional = (getTransactionalMetrics: GetTransactionalMetrics, path: string, summary: string) =>
  defineRoute({
    method: "get",
    path,
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
  },
  (uses) => [
    account(uses.getAccountMetrics, "/metrics", "Email metrics of the account"),
    account(uses.getAccountMetrics, "/stats", "Email metrics of the account (alias of GET /metrics)"),
    transactional(uses.getTransactionalMetrics, "/metrics/transactional/:idOrSlug", "Email metrics of one saved transactional email"),
    transactional(
      uses.getTransactionalMetrics,
      "/transactional/:idOrSlug/stats",
      "Email metrics of one saved transactional email (alias of GET /metrics/transactional/{idOrSlug})",
    ),
  ],
);
