import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { barMarketer, dataExportNotFound } from "./errors.js";
import type { DataExportRepository } from "./ports.js";
import { toDataExportView, type DataExportView } from "./view.js";

/** GET /data-exports/{id}: one export of the actor's company (404 for any other). */
export class GetDataExport {
  constructor(private readonly exports: DataExportRepository) {}

  execute = async (actor: Actor, id: string): Promise<Result<DataExportView>> => {
    const barred = barMarketer(actor);
    if (barred) return fail(barred);
    const found = await this.exports.find(actor.companyId, id);
    return found ? ok(toDataExportView(found)) : fail(dataExportNotFound());
  };
}
