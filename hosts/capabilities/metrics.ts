import { ContainerModule, type ResolutionContext } from "inversify";
import { KnexCommerceForecasts } from "../../adapters/knex/repositories/commerce-forecast-repository.js";
import { KnexMetricsQueries } from "../../adapters/knex/repositories/metrics-queries.js";
import { KnexEmailMetricsQueries } from "../../adapters/knex/repositories/email-metrics-queries.js";
import { CampaignGoalRepository } from "../../core/campaigns/goals.js";
import { CampaignRepository } from "../../core/campaigns/ports.js";
import { CommerceForecasts, OrderHistory } from "../../core/metrics/forecast-ports.js";
import { GetAccountMetrics } from "../../core/metrics/get-account-metrics.js";
import { GetCampaignMetrics } from "../../core/metrics/get-campaign-metrics.js";
import { ListCampaignEvents } from "../../core/metrics/list-campaign-events.js";
import { ListEmailMetrics } from "../../core/metrics/list-email-metrics.js";
import { SequenceRepository } from "../../core/sequences/ports.js";
import { SequenceMetricsQueries } from "../../core/metrics/sequence-metrics-ports.js";
import { GetTransactionalMetrics } from "../../core/metrics/get-transactional-metrics.js";
import { EmailMetricsQueries, MetricsQueries } from "../../core/metrics/ports.js";
import { REFRESH_COMMERCE_FORECASTS_JOB, RefreshCommerceForecasts } from "../../core/metrics/refresh-commerce-forecasts.js";
import { Clock } from "../../core/ports/clock.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/** Commerce forecasts are evaluated again this often (the spec's snapshot is independent of the requested period). */
const REFRESH_FORECASTS_EVERY_MS = 6 * 60 * 60_000;

/**
 * Metrics: the aggregate queries, the use cases of the account, transactional emails, campaigns
 * and emails, and the commerce forecast snapshots the worker refreshes.
 */
export const metricsModule = new ContainerModule((container) => {
  bindClass(container, KnexMetricsQueries, [Database]);
  container.bind<MetricsQueries>(MetricsQueries).toService(KnexMetricsQueries);
  bindClass(container, KnexCommerceForecasts, [Database]);
  container.bind<CommerceForecasts>(CommerceForecasts).toService(KnexCommerceForecasts);
  container.bind<OrderHistory>(OrderHistory).toService(KnexCommerceForecasts);
  bindClass(container, GetAccountMetrics, [MetricsQueries, Clock, CommerceForecasts]);
  bindClass(container, GetTransactionalMetrics, [MetricsQueries, Clock]);
  bindClass(container, KnexEmailMetricsQueries, [Database]);
  container.bind<EmailMetricsQueries>(EmailMetricsQueries).toService(KnexEmailMetricsQueries);
  bindClass(container, GetCampaignMetrics, [MetricsQueries, CampaignRepository, CampaignGoalRepository, EmailMetricsQueries, Clock]);
  bindClass(container, ListCampaignEvents, [EmailMetricsQueries, CampaignRepository, Clock]);
  bindClass(container, ListEmailMetrics, [EmailMetricsQueries, SequenceRepository, CampaignGoalRepository, SequenceMetricsQueries, Clock]);
  bindClass(container, RefreshCommerceForecasts, [OrderHistory, CommerceForecasts, Clock]);
  container.onActivation(JobHandlers, registerJobs);
});

function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(REFRESH_COMMERCE_FORECASTS_JOB, async () => {
    await container.get(RefreshCommerceForecasts).execute();
  });
  handlers.schedule({ name: REFRESH_COMMERCE_FORECASTS_JOB, everyMs: REFRESH_FORECASTS_EVERY_MS, job: { type: REFRESH_COMMERCE_FORECASTS_JOB } });
  return handlers;
}
