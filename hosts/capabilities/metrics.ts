import { ContainerModule } from "inversify";
import { KnexMetricsQueries } from "../../adapters/knex/repositories/metrics-queries.js";
import { GetAccountMetrics } from "../../core/metrics/get-account-metrics.js";
import { GetTransactionalMetrics } from "../../core/metrics/get-transactional-metrics.js";
import { MetricsQueries } from "../../core/metrics/ports.js";
import { Clock } from "../../core/ports/clock.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";

/** Metrics: the aggregate queries and the two use cases. */
export const metricsModule = new ContainerModule((container) => {
  bindClass(container, KnexMetricsQueries, [Database]);
  container.bind<MetricsQueries>(MetricsQueries).toService(KnexMetricsQueries);
  bindClass(container, GetAccountMetrics, [MetricsQueries, Clock]);
  bindClass(container, GetTransactionalMetrics, [MetricsQueries, Clock]);
});
