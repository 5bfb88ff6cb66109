import { ContainerModule } from "inversify";
import { KnexMetricsQueries } from "../../adapters/knex/repositories/metrics-queries.js";
import { KnexEmailMetricsQueries } from "../../adapters/knex/repositories/email-metrics-queries.js";
import { CampaignGoalRepository } from "../../core/campaigns/goals.js";
import { CampaignRepository } from "../../core/campaigns/ports.js";
import { GetAccountMetrics } from "../../core/metrics/get-account-metrics.js";
import { GetCampaignMetrics } from "../../core/metrics/get-campaign-metrics.js";
import { ListCampaignEvents } from "../../core/metrics/list-campaign-events.js";
import { ListEmailMetrics } from "../../core/metrics/list-email-metrics.js";
import { SequenceRepository } from "../../core/sequences/ports.js";
import { GetTransactionalMetrics } from "../../core/metrics/get-transactional-metrics.js";
import { EmailMetricsQueries, MetricsQueries } from "../../core/metrics/ports.js";
import { Clock } from "../../core/ports/clock.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";

/** Metrics: the aggregate queries and the use cases of the account, transactional emails, campaigns and emails. */
export const metricsModule = new ContainerModule((container) => {
  bindClass(container, KnexMetricsQueries, [Database]);
  container.bind<MetricsQueries>(MetricsQueries).toService(KnexMetricsQueries);
  bindClass(container, GetAccountMetrics, [MetricsQueries, Clock]);
  bindClass(container, GetTransactionalMetrics, [MetricsQueries, Clock]);
  bindClass(container, KnexEmailMetricsQueries, [Database]);
  container.bind<EmailMetricsQueries>(EmailMetricsQueries).toService(KnexEmailMetricsQueries);
  bindClass(container, GetCampaignMetrics, [MetricsQueries, CampaignRepository, CampaignGoalRepository, EmailMetricsQueries, Clock]);
  bindClass(container, ListCampaignEvents, [EmailMetricsQueries, CampaignRepository, Clock]);
  bindClass(container, ListEmailMetrics, [EmailMetricsQueries, SequenceRepository, Clock]);
});
