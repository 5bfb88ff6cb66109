import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberImportRepository } from "../subscriber-imports/ports.js";
import { syncNotFound } from "./errors.js";
import type { WarehouseSyncRepository } from "./ports.js";
import { describeRuns } from "./run-views.js";
import type { RunView } from "./view.js";

/** How many runs GET /warehouse-syncs/{id}/runs shows. */
export const RUNS_SHOWN = 20;

/** GET /warehouse-syncs/{id}/runs: the sync's most recent runs, newest first. */
export class ListWarehouseSyncRuns {
  constructor(
    private readonly syncs: WarehouseSyncRepository,
    private readonly imports: SubscriberImportRepository,
  ) {}

  execute = async (actor: Actor, syncId: string): Promise<Result<RunView[]>> => {
    const sync = await this.syncs.find(actor.companyId, syncId);
    if (!sync) return fail(syncNotFound());
    return ok(await describeRuns(this.imports, actor.companyId, await this.syncs.listRuns(actor.companyId, sync.id, RUNS_SHOWN)));
  };
}
