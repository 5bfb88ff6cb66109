import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberImportRepository } from "./ports.js";
import { toImportView, type ImportView } from "./view.js";

export const IMPORT_NOT_FOUND = () => notFound("Import not found");

/** One import of the actor's company, with its progress and counts. */
export class GetImport {
  constructor(private readonly imports: SubscriberImportRepository) {}

  execute = async (actor: Actor, importId: string): Promise<Result<ImportView>> => {
    const found = await this.imports.find(actor.companyId, importId);
    return found ? ok(toImportView(found)) : fail(IMPORT_NOT_FOUND());
  };
}
