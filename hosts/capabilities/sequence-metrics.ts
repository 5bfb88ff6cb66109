import { ContainerModule } from "inversify";
import { KnexSequenceMetricsQueries } from "../../adapters/knex/repositories/sequence-metrics-queries.js";
import { GetSequenceMetrics } from "../../core/metrics/get-sequence-metrics.js";
import { ListSequenceEvents } from "../../core/metrics/list-sequence-events.js";
import { EmailMetricsQueries } from "../../core/metrics/ports.js";
import { SequenceMetricsQueries } from "../../core/metrics/sequence-metrics-ports.js";
import { Clock } from "../../core/ports/clock.js";
import { SequenceRepository } from "../../core/sequences/ports.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";

/** Metrics of one sequence: its sends' funnel per step, its enrollments now, and its sends' events. */
export const sequenceMetricsModule = new ContainerModule((container) => {
  bindClass(container, KnexSequenceMetricsQueries, [Database]);
  container.bind<SequenceMetricsQueries>(SequenceMetricsQueries).toService(KnexSequenceMetricsQueries);
  bindClass(container, GetSequenceMetrics, [SequenceRepository, SequenceMetricsQueries, Clock]);
  bindClass(container, ListSequenceEvents, [EmailMetricsQueries, SequenceRepository, Clock]);
});
