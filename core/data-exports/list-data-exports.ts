import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { barMarketer } from "./errors.js";
import type { DataExportRepository } from "./ports.js";
import { toDataExportView, type DataExportView } from "./view.js";

/** GET /data-exports: the company's exports, oldest first (a company has few). */
export class ListDataExports {
  constructor(private readonly exports: DataExportRepository) {}

  execute = async (actor: Actor): Promise<Result<DataExportView[]>> => {
    const barred = barMarketer(actor);
    if (barred) return fail(barred);
    return ok((await this.exports.list(actor.companyId)).map(toDataExportView));
  };
}
