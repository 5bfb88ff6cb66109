import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { COMPONENT_NOT_FOUND } from "./model.js";
import type { EmailComponentRepository } from "./ports.js";

/**
 * DELETE /email-components/{componentId}. Emails that copied its blocks keep them; deleting the
 * default footer makes emails fall back to the footer generated from the company profile.
 */
export class DeleteEmailComponent {
  constructor(private readonly components: EmailComponentRepository) {}

  execute = async (actor: Actor, componentId: string): Promise<Result<{ id: string }>> =>
    (await this.components.delete(actor.companyId, componentId)) ? ok({ id: componentId }) : fail(COMPONENT_NOT_FOUND);
}
