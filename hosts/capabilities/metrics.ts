import { ContainerModule, type ResolutionContext } from "inversify";
import { KnexCommerceForecasts } from "../../adapters/knex/repositories/commerce-forecast-repository.js";
import { KnexMetricsQueries } from "../../adapters/knex/repositories/metrics-queries.js";
import { CommerceForecasts, OrderHistory } from "../../core/metrics/forecast-ports.js";
import { GetAccountMetrics } from "../../core/metrics/get-account-metrics.js";
import { GetTransactionalMetrics } from "../../core/metrics/get-transactional-metrics.js";
import { MetricsQueries } from "../../core/metrics/ports.js";
import { REFRESH_COMMERCE_FORECASTS_JOB, RefreshCommerceForecasts } from "../../core/metrics/refresh-commerce-forecasts.js";
import { Clock } from "../../core/ports/clock.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/** Commerce forecasts are evaluated again this often (the spec's snapshot is independent of the requested period). */
const REFRESH_FORECASTS_EVERY_MS = 6 * 60 * 60_000;

/** Metrics: the aggregate queries, the two use cases, and the commerce forecast snapshots the worker refreshes. */
export const metricsModule = new ContainerModule((container) => {
  bindClass(container, KnexMetricsQueries, [Database]);
  container.bind<MetricsQueries>(MetricsQueries).toService(KnexMetricsQueries);
  bindClass(container, KnexCommerceForecasts, [Database]);
  container.bind<CommerceForecasts>(CommerceForecasts).toService(KnexCommerceForecasts);
  container.bind<OrderHistory>(OrderHistory).toService(KnexCommerceForecasts);
  bindClass(container, GetAccountMetrics, [MetricsQueries, Clock, CommerceForecasts]);
  bindClass(container, GetTransactionalMetrics, [MetricsQueries, Clock]);
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
