import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { ApiKeyRepository } from "./ports.js";
import { toApiKeyView, type ApiKeyView } from "./view.js";

/** Every active key of the actor's company, metadata only. */
export class ListApiKeys {
  constructor(private readonly keys: ApiKeyRepository) {}

  execute = async (actor: Actor): Promise<Result<ApiKeyView[]>> => {
    const records = await this.keys.listActive(actor.companyId);
    return ok(records.map((record) => toApiKeyView(record, actor.apiKeyId)));
  };
}
