import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { TEMPLATE_NOT_FOUND } from "./model.js";
import type { TemplateRepository } from "./ports.js";
import { toTemplateView, type TemplateView } from "./view.js";

/** GET /templates/{templateId}. */
export class GetTemplate {
  constructor(private readonly templates: TemplateRepository) {}

  execute = async (actor: Actor, templateId: string): Promise<Result<TemplateView>> => {
    const template = await this.templates.find(actor.companyId, templateId);
    return template ? ok(toTemplateView(template)) : fail(TEMPLATE_NOT_FOUND);
  };
}
