import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { AccountMetricsQuery, TransactionalMetricsPath, TransactionalMetricsQuery } from "../../../core/metrics/commands.js";
import { GetAccountMetrics } from "../../../core/metrics/get-account-metrics.js";
import { GetTransactionalMetrics } from "../../../core/metrics/get-transactional-metrics.js";
import { MAILBOX_PROVIDERS } from "../../../core/metrics/mailbox-provider.js";
import { CLICKED_LINKS_LIMIT } from "../../../core/metrics/metrics-report.js";
import { MAX_RANGE_DAYS } from "../../../core/metrics/period.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableTimestamp } from "../../../core/shared/view-fields.js";

const Period = t.type({ name: t.string, start: NullableTimestamp, end: NullableTimestamp });

export const Stats = t.type({
  sent: t.number,
  delivered: t.number,
  bounced: t.number,
  opened: t.number,
  clicked: t.number,
  replies: t.number,
  complaints: t.number,
  unsubscribed: t.number,
  deliveryRate: t.number,
  bounceRate: t.number,
  openRate: t.number,
  clickRate: t.number,
  replyRate: t.number,
  complaintRate: t.number,
  unsubscribeRate: t.number,
  rateDenominator: t.number,
  rateDenominatorBasis: t.string,
});

const Engagement = t.type({ opens: t.number, clicks: t.number });

const Report = {
  period: Period,
  stats: Stats,
  complaints: t.type({ count: t.number, rate: t.number }),
  bounceBreakdown: t.type({
    permanent: t.number,
    transient: t.number,
    undetermined: t.number,
    subtypes: t.array(t.type({ type: t.string, subType: t.string, count: t.number })),
  }),
  engagementBreakdown: t.type({ human: Engagement, machine: Engagement }),
  clickedLinks: t.array(t.type({ url: t.string, clicks: t.number, percentage: t.number })),
};

const RULES =
  "The period is a funnel over the sends made in it (test sends excluded): every count is of those sends, whatever the time of its event; opened and clicked count each send once. " +
  `start and end (ISO 8601) go together (400), span at most ${MAX_RANGE_DAYS} days (400) and win over period. ` +
  "Rates are percentages with two decimals over rateDenominator: delivered (sends with a delivery event or engagement), or sent when no send of the period has a delivery event; deliveryRate and bounceRate are over sent. " +
  "includeMachineEngagement=true counts scanner, preview and prefetch opens and clicks too; engagementBreakdown always gives both. " +
  `bounceBreakdown counts each bounced send once by its latest bounce; clickedLinks lists the ${CLICKED_LINKS_LIMIT} links clicked by the most sends (percentage of clicking sends).`;

const account = (path: string, summary: string) =>
  defineUncheckedRoute({
    method: "get",
    path,
    tag: "Metrics",
    scopes: ["analytics:read"],
    summary: `${summary}. period defaults to 7d; emailType (campaign, transactional, sequence) and mailboxProvider (${MAILBOX_PROVIDERS.join(", ")}) narrow the sends (a provider filter reports replies as 0). subscriberCount and activeSubscriberCount ignore the period. ${RULES}`,
    query: AccountMetricsQuery,
    response: t.intersection([
      t.type({ ...Report, subscriberCount: t.number, activeSubscriberCount: t.number }),
      t.partial({ emailType: t.string, mailboxProvider: t.string }),
    ]),
    errors: [400, 422],
    handle: async ({ input, actor, container }) => map((metrics: object) => ({ ...metrics }))(await container.get(GetAccountMetrics).execute(actor, input.query)),
  });

const transactional = (path: string, summary: string) =>
  defineUncheckedRoute({
    method: "get",
    path,
    tag: "Metrics",
    scopes: ["analytics:read"],
    summary: `${summary}, by ID or API slug; all time unless period or start and end are given. 404 'Transactional email not found' (also once deleted). ${RULES}`,
    params: TransactionalMetricsPath,
    query: TransactionalMetricsQuery,
    response: t.type({ ...Report, transactional: t.type({ id: Id, name: t.string, slug: t.string }) }),
    errors: [400, 404, 422],
    handle: async ({ input, actor, container }) =>
      map((metrics: object) => ({ ...metrics }))(await container.get(GetTransactionalMetrics).execute(actor, input.params.idOrSlug, input.query)),
  });

/**
 * Metrics (spec "Metrics", compat-reference §16). The alias /transactional/:idOrSlug/stats is
 * mounted before the transactional routes so /transactional/:idOrSlug does not take it.
 */
export const metricsRoutes: readonly Route[] = [
  account("/metrics", "Email metrics of the account"),
  account("/stats", "Email metrics of the account (alias of GET /metrics)"),
  transactional("/metrics/transactional/:idOrSlug", "Email metrics of one saved transactional email"),
  transactional("/transactional/:idOrSlug/stats", "Email metrics of one saved transactional email (alias of GET /metrics/transactional/{idOrSlug})"),
];
