import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { AccountMetricsQuery } from "./commands.js";
import type { CommerceForecastView } from "./commerce-forecast-view.js";
import type { CommerceForecasts } from "./forecast-ports.js";
import { metricsReport, type MetricsReport } from "./metrics-report.js";
import type { MailboxProvider } from "./mailbox-provider.js";
import type { MetricsEmailType } from "./model.js";
import { resolveWindow, windowView } from "./period.js";
import type { MetricsQueries } from "./ports.js";

export interface AccountMetrics extends MetricsReport {
  readonly period: ReturnType<typeof windowView>;
  readonly emailType?: MetricsEmailType;
  readonly mailboxProvider?: MailboxProvider;
  readonly subscriberCount: number;
  readonly activeSubscriberCount: number;
  readonly commerceForecast?: CommerceForecastView;
}

/** The account's default period (the official client's default too). */
export const ACCOUNT_DEFAULT_PERIOD = "7d";

/**
 * GET /metrics: the funnel of the company's sends made in the period (test sends excluded),
 * optionally of one email type or mailbox provider, with the contact counts of the account, and
 * the latest commerce forecast snapshot when neither filter is given (spec: omitted when no
 * snapshot exists or the store holding it does not answer).
 */
export class GetAccountMetrics {
  constructor(
    private readonly queries: MetricsQueries,
    private readonly clock: Clock,
    private readonly forecasts: CommerceForecasts,
  ) {}

  execute = async (actor: Actor, query: AccountMetricsQuery): Promise<Result<AccountMetrics>> => {
    const window = resolveWindow(query, this.clock.now(), ACCOUNT_DEFAULT_PERIOD);
    if (window._tag === "Left") return window;
    const selection = { companyId: actor.companyId, window: window.right, emailType: query.emailType, mailboxProvider: query.mailboxProvider };
    const withForecast = query.emailType === undefined && query.mailboxProvider === undefined;
    const [report, contacts, commerceForecast] = await Promise.all([
      metricsReport(this.queries, selection, {
        includeMachineEngagement: query.includeMachineEngagement ?? false,
        withoutReplies: query.mailboxProvider !== undefined,
      }),
      this.queries.subscriberCounts(actor.companyId),
      withForecast ? this.forecasts.latest(actor.companyId).catch(() => null) : Promise.resolve(null),
    ]);
    return ok({
      period: windowView(window.right),
      ...(query.emailType ? { emailType: query.emailType } : {}),
      ...(query.mailboxProvider ? { mailboxProvider: query.mailboxProvider } : {}),
      ...report,
      subscriberCount: contacts.total,
      activeSubscriberCount: contacts.active,
      ...(commerceForecast ? { commerceForecast } : {}),
    });
  };
}
