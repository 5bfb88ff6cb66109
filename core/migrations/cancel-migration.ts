import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import { findRun } from "./find-run.js";
import { transition } from "./model.js";
import type { MigrationRunRepository } from "./ports.js";
import { toRunStatusView, type RunStatusView } from "./view.js";

/**
 * POST /migrations/{runId}/cancel (decisions.md): a running run becomes `cancel_requested` and
 * stops after the batch being imported; a run awaiting approval or queued is `canceled` at once.
 * Canceling again answers the run as it is; a completed or failed run cannot be canceled (400).
 * What was imported before the cancel stays.
 */
export class CancelMigration {
  constructor(
    private readonly runs: MigrationRunRepository,
    private readonly tenancy: TenancyRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, runId: string): Promise<Result<RunStatusView>> => {
    // A job step may save the run between our read and our write: read again and retry.
    for (let attempt = 0; attempt < 5; attempt++) {
      const found = await findRun(this.runs, this.tenancy, actor, runId);
      if (found._tag === "Left") return found;
      const run = found.right;
      const next = transition(run, { type: "cancel" }, this.clock.now());
      if (next._tag === "Left") return next;
      if (next.right === run || (await this.runs.save(next.right, { status: run.status, version: run.version }))) return ok(toRunStatusView(next.right));
    }
    throw new Error(`migration run ${runId} kept changing while being canceled`);
  };
}
