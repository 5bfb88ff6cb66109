import type { ListRepository } from "../lists/ports.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, must, ok, type Result } from "../shared/result.js";
import type { SubscriberImportRepository } from "../subscriber-imports/ports.js";
import type { UpdateSyncCommand } from "./commands.js";
import { checkLists } from "./create-warehouse-sync.js";
import { syncNotFound } from "./errors.js";
import { describeSyncs } from "./get-warehouse-sync.js";
import { transition, type WarehouseSync } from "./model.js";
import type { WarehouseSyncRepository } from "./ports.js";
import type { SyncView } from "./view.js";

/**
 * PATCH /warehouse-syncs/{id}: renames, pauses or resumes (isEnabled), changes the frequency,
 * lists, opt-in mode, automations, limits, or requests a full resync. The query, mapping and
 * cursor are fixed: a different read is a new sync. Omitted fields are kept.
 */
export class UpdateWarehouseSync {
  constructor(
    private readonly syncs: WarehouseSyncRepository,
    private readonly lists: ListRepository,
    private readonly imports: SubscriberImportRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, syncId: string, command: UpdateSyncCommand): Promise<Result<SyncView>> => {
    if (Object.values(command).every((value) => value === undefined)) return fail(badRequest("No supported fields provided"));
    const { companyId } = actor;
    const listIds = command.listIds === undefined ? null : await checkLists(this.lists, companyId, command.listIds);
    if (listIds?._tag === "Left") return listIds;
    const updated = await this.syncs.update(companyId, syncId, async (sync, tx) => {
      const now = this.clock.now();
      let next: WarehouseSync = {
        ...sync,
        name: command.name ?? sync.name,
        listIds: listIds?.right ?? sync.listIds,
        optInMode: command.optInMode ?? sync.optInMode,
        triggerAutomations: command.triggerAutomations ?? sync.triggerAutomations,
        frequency: command.frequency ?? sync.frequency,
        fullResyncRequested: command.fullResyncRequested ?? sync.fullResyncRequested,
        maxRowsPerRun: command.maxRowsPerRun ?? sync.maxRowsPerRun,
        statementTimeoutSeconds: command.statementTimeoutSeconds ?? sync.statementTimeoutSeconds,
        updatedAt: now,
      };
      if (command.isEnabled !== undefined && command.isEnabled !== sync.isEnabled)
        next = must(transition(next, { type: "enabled", isEnabled: command.isEnabled }, now));
      await tx.save(next);
      return next;
    });
    if (!updated) return fail(syncNotFound());
    const [view] = await describeSyncs(this.syncs, this.imports, companyId, [updated]);
    return ok(view!);
  };
}
