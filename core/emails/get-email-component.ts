import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { COMPONENT_NOT_FOUND } from "./model.js";
import type { EmailComponentRepository } from "./ports.js";
import { toEmailComponentView, type EmailComponentView } from "./view.js";

/** GET /email-components/{componentId}. */
export class GetEmailComponent {
  constructor(private readonly components: EmailComponentRepository) {}

  execute = async (actor: Actor, componentId: string): Promise<Result<EmailComponentView>> => {
    const component = await this.components.find(actor.companyId, componentId);
    return component ? ok(toEmailComponentView(component)) : fail(COMPONENT_NOT_FOUND);
  };
}
