import type { Clock } from "../ports/clock.js";
import type { JobQueue } from "../ports/job-queue.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import { startMigrationJob } from "./advance-migration.js";
import { toResourceOptions, type StartMigrationCommand } from "./commands.js";
import { findRun } from "./find-run.js";
import { transition } from "./model.js";
import type { MigrationRunRepository } from "./ports.js";
import { toRunStatusView, type RunStatusView } from "./view.js";

/**
 * POST /migrations/{runId}/start, as the spec's table says: approves resourceIds (when given)
 * and queues the run for the job; a queued or running run is answered as it is, with no new
 * execution and its plan unchanged.
 */
export class StartMigration {
  constructor(
    private readonly runs: MigrationRunRepository,
    private readonly tenancy: TenancyRepository,
    private readonly jobs: JobQueue,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, runId: string, command: StartMigrationCommand): Promise<Result<RunStatusView>> => {
    const event = { type: "start", resourceIds: command.resourceIds ?? [], resourceOptions: toResourceOptions(command.resourceOptions) } as const;
    // A cancel or a job step may save the run between our read and our write: read again and retry.
    for (let attempt = 0; attempt < 5; attempt++) {
      const found = await findRun(this.runs, this.tenancy, actor, runId);
      if (found._tag === "Left") return found;
      const run = found.right;
      const next = transition(run, event, this.clock.now());
      if (next._tag === "Left") return next;
      if (next.right === run) {
        // Queued but its job may never have been enqueued (the process stopped in between): the
        // start job's singleton key makes this a no-op whenever the job exists.
        if (run.status === "queued") await this.jobs.enqueue(startMigrationJob(run));
        return ok(toRunStatusView(run));
      }
      if (await this.runs.save(next.right, { status: run.status, version: run.version })) {
        await this.jobs.enqueue(startMigrationJob(next.right));
        return ok(toRunStatusView(next.right));
      }
    }
    throw new Error(`migration run ${runId} kept changing while being started`);
  };
}
