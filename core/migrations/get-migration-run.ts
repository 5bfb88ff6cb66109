import type { Actor } from "../shared/actor.js";
import { map } from "fp-ts/lib/Either.js";
import type { Result } from "../shared/result.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import { findRun } from "./find-run.js";
import type { MigrationRunRepository } from "./ports.js";
import { toMigrationRunView, type MigrationRunView } from "./view.js";

/** GET /migrations/{runId}: the run with its discovery, plan, progress, report and errors. */
export class GetMigrationRun {
  constructor(
    private readonly runs: MigrationRunRepository,
    private readonly tenancy: TenancyRepository,
  ) {}

  execute = async (actor: Actor, runId: string): Promise<Result<MigrationRunView>> =>
    map(toMigrationRunView)(await findRun(this.runs, this.tenancy, actor, runId));
}
