import type { Container } from "inversify";
import type { Knex } from "knex";
import { Clock } from "../../core/ports/clock.js";
import { JobStore, ScheduleStore } from "../../core/ports/job-queue.js";
import { isPostgres } from "../../adapters/knex/connection.js";
import { listenForJobs } from "../../adapters/knex/job-wakeups.js";
import { AppLogger, Database } from "../tokens.js";
import type { Logger } from "../logger.js";
import { JobHandlers } from "./job-handlers.js";
import { Worker, type WorkerOptions } from "./worker.js";

/** A worker over the container's queue and handlers, woken by Postgres notifications when available; on Postgres it overlaps claims with the writes of outcomes. */
export function createWorker(container: Container, options: WorkerOptions, { push = true }: { push?: boolean } = {}): Worker {
  const logger = container.get<Logger>(AppLogger);
  const knex = container.get<Knex>(Database);
  return new Worker(
    {
      store: container.get<JobStore>(JobStore),
      schedules: container.get<ScheduleStore>(ScheduleStore),
      handlers: container.get(JobHandlers),
      clock: container.get<Clock>(Clock),
      logger,
      ...(push ? { listen: (wake: () => void) => listenForJobs(knex, wake, (error) => logger.warn({ err: error }, "job notifications interrupted")) } : {}),
    },
    { overlapOutcomes: isPostgres(knex), ...options },
  );
}
