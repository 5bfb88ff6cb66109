import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, must, ok, type Result } from "../shared/result.js";
import { barMarketer, dataExportNotFound } from "./errors.js";
import { transition } from "./model.js";
import type { DataExportRepository } from "./ports.js";
import { cancelQueuedRun } from "./queue-run.js";

export interface DeletedDataExport {
  readonly deleted: true;
  readonly id: string;
  readonly message: string;
}

/**
 * DELETE /data-exports/{id}: the export stops (a queued run is cancelled, a running one stops at
 * its next file) and disappears from the API. Files already written stay in the bucket.
 */
export class DeleteDataExport {
  constructor(
    private readonly exports: DataExportRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, id: string): Promise<Result<DeletedDataExport>> => {
    const barred = barMarketer(actor);
    if (barred) return fail(barred);
    const now = this.clock.now();
    const deleted = await this.exports.change(actor.companyId, id, (state) => {
      if (state.dataExport.deletedAt) return { value: false };
      const cancelled = cancelQueuedRun(state, now);
      return { save: { dataExport: must(transition(cancelled.dataExport, { type: "delete" }, now)), runs: cancelled.runs }, value: true };
    });
    if (!deleted) return fail(dataExportNotFound());
    return ok({ deleted: true, id, message: "Data export deleted: no more files will be written; files already written stay in the bucket" });
  };
}
