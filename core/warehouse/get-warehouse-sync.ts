import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberImportRepository } from "../subscriber-imports/ports.js";
import { syncNotFound } from "./errors.js";
import type { WarehouseSync } from "./model.js";
import type { WarehouseSyncRepository } from "./ports.js";
import { describeRuns } from "./run-views.js";
import { toSyncView, type SyncView } from "./view.js";

/** Syncs as the API shows them, each with its latest run and that run's imports. */
export async function describeSyncs(
  syncs: WarehouseSyncRepository,
  imports: SubscriberImportRepository,
  companyId: string,
  found: readonly WarehouseSync[],
): Promise<SyncView[]> {
  const runIds = found.flatMap((sync) => (sync.latestRunId ? [sync.latestRunId] : []));
  const runs = runIds.length > 0 ? await describeRuns(imports, companyId, await syncs.findRuns(companyId, runIds)) : [];
  return found.map((sync) => toSyncView(sync, runs.find((run) => run.id === sync.latestRunId) ?? null));
}

/** GET /warehouse-syncs/{id} (spec): the sync with latestRun; 404 `not_found` for another company's. */
export class GetWarehouseSync {
  constructor(
    private readonly syncs: WarehouseSyncRepository,
    private readonly imports: SubscriberImportRepository,
  ) {}

  execute = async (actor: Actor, syncId: string): Promise<Result<SyncView>> => {
    const sync = await this.syncs.find(actor.companyId, syncId);
    if (!sync) return fail(syncNotFound());
    const [view] = await describeSyncs(this.syncs, this.imports, actor.companyId, [sync]);
    return ok(view!);
  };
}
