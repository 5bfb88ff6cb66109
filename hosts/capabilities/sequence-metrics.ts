import { ContainerModule } from "inversify";
import { KnexSequenceMetricsQueries } from "../../adapters/knex/repositories/sequence-metrics-queries.js";
import { GetSequenceMetrics } from "../../core/metrics/get-sequence-metrics.js";
import { SequenceMetricsQueries } from "../../core/metrics/sequence-metrics-ports.js";
import { Clock } from "../../core/ports/clock.js";
import { SequenceRepository } from "../../core/sequences/ports.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";

/** Metrics of one sequence: its sends' funnel per step, and its enrollments now. */
export const sequenceMetricsModule = new ContainerModule((container) => {
  bindClass(container, KnexSequenceMetricsQueries, [Database]);
  container.bind<SequenceMetricsQueries>(SequenceMetricsQueries).toService(KnexSequenceMetricsQueries);
  bindClass(container, GetSequenceMetrics, [SequenceRepository, SequenceMetricsQueries, Clock]);
});
