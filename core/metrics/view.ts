import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableTimestamp, view, viewWithOptional } from "../shared/view-fields.js";
import { MAILBOX_PROVIDERS } from "./mailbox-provider.js";
import { EMAIL_TYPES } from "./model.js";
import { CommerceForecastView } from "./commerce-forecast-view.js";

/** The funnel numbers of a set of sends (compat-reference §16); also each saved transactional email's `stats`. */
export const StatsView = view(
  {
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
    rateDenominatorBasis: oneOf(["delivered", "sent"], "RateDenominatorBasis"),
  },
  "Stats",
);
export type StatsView = t.TypeOf<typeof StatsView>;

/** The stats of campaigns and sequences: the funnel, and the conversions their goals credit them with (compat-reference §16). */
export const creditedStatsView = (name: string) => view({ ...StatsView.type.props, conversions: t.number, revenueCents: t.number }, name);

const PeriodView = view({ name: t.string, start: NullableTimestamp, end: NullableTimestamp }, "MetricsPeriod");
const EngagementView = view({ opens: t.number, clicks: t.number });

/** What every metrics report holds, whatever sends it covers. */
export const report = {
  period: PeriodView,
  stats: StatsView,
  complaints: view({ count: t.number, rate: t.number }),
  bounceBreakdown: view({
    permanent: t.number,
    transient: t.number,
    undetermined: t.number,
    subtypes: t.readonlyArray(view({ type: t.string, subType: t.string, count: t.number })),
  }),
  engagementBreakdown: view({ human: EngagementView, machine: EngagementView }),
  clickedLinks: t.readonlyArray(view({ url: t.string, clicks: t.number, percentage: t.number })),
};

/** GET /metrics: the account's report; emailType and mailboxProvider only when the query narrowed by them; commerceForecast only when it did not. */
export const AccountMetricsView = viewWithOptional(
  { ...report, subscriberCount: t.number, activeSubscriberCount: t.number },
  { emailType: oneOf(EMAIL_TYPES, "EmailType"), mailboxProvider: oneOf(MAILBOX_PROVIDERS, "MailboxProvider"), commerceForecast: CommerceForecastView },
  "AccountMetrics",
);
export type AccountMetricsView = t.TypeOf<typeof AccountMetricsView>;

/** GET /metrics/transactional/{idOrSlug}: one saved transactional email's report. */
export const TransactionalMetricsView = view({ ...report, transactional: view({ id: Id, name: t.string, slug: t.string }) }, "TransactionalMetrics");
export type TransactionalMetricsView = t.TypeOf<typeof TransactionalMetricsView>;
