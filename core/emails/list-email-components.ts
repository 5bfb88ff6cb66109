import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { ListEmailComponentsQuery } from "./commands.js";
import type { EmailComponentRepository } from "./ports.js";
import { toEmailComponentView, type EmailComponentView } from "./view.js";

/** GET /email-components: alphabetical, optionally one type or only the defaults. */
export class ListEmailComponents {
  constructor(private readonly components: EmailComponentRepository) {}

  execute = async (actor: Actor, query: ListEmailComponentsQuery): Promise<Result<EmailComponentView[]>> =>
    ok((await this.components.list(actor.companyId, { type: query.type, defaultsOnly: query.defaultsOnly })).map(toEmailComponentView));
}
