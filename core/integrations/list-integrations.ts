import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { IntegrationRepository } from "./ports.js";
import { toIntegrationView, type IntegrationView } from "./view.js";

/** GET /integrations: the company's connected integrations; `includeInactive` adds the disconnected ones. */
export class ListIntegrations {
  constructor(private readonly integrations: IntegrationRepository) {}

  execute = async (actor: Actor, includeInactive: boolean): Promise<Result<IntegrationView[]>> =>
    ok((await this.integrations.list(actor.companyId, includeInactive)).map(toIntegrationView));
}
