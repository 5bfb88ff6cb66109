import { ContainerModule, type ResolutionContext } from "inversify";
import { KnexRetentionSweeper } from "../../adapters/knex/retention-sweeper.js";
import { Clock } from "../../core/ports/clock.js";
import { RetentionStore } from "../../core/retention/ports.js";
import { RetentionPolicy } from "../../core/retention/policy.js";
import { SWEEP_RETENTION_JOB, SweepRetention } from "../../core/retention/sweep-retention.js";
import { bindClass } from "../bind-class.js";
import type { Logger } from "../logger.js";
import { AppLogger, Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/**
 * Retention: finished jobs, expired idempotency records, old rendered bodies and old delivery
 * events are swept every hour (a sweep with nothing to do costs a few index lookups).
 */
export const retentionModule = new ContainerModule((container) => {
  bindClass(container, KnexRetentionSweeper, [Database]);
  container.bind<RetentionStore>(RetentionStore).toService(KnexRetentionSweeper);
  bindClass(container, SweepRetention, [RetentionStore, RetentionPolicy, Clock]);
  container.onActivation(JobHandlers, registerJobs);
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(SWEEP_RETENTION_JOB, async () => {
    const swept = await container.get(SweepRetention).execute();
    if (Object.values(swept).some((count) => count > 0)) container.get<Logger>(AppLogger).info({ swept }, "retention sweep");
  });
  handlers.schedule({ name: SWEEP_RETENTION_JOB, everyMs: 60 * 60_000, job: { type: SWEEP_RETENTION_JOB } });
  return handlers;
}
