import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { TEMPLATE_NOT_FOUND } from "./model.js";
import type { TemplateRepository } from "./ports.js";

/**
 * DELETE /templates/{templateId}: the template disappears from the API. The row stays (marked
 * deleted) so saved transactional emails that point at it keep their content.
 */
export class DeleteTemplate {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, templateId: string): Promise<Result<{ templateId: string }>> =>
    (await this.templates.softDelete(actor.companyId, templateId, this.clock.now())) ? ok({ templateId }) : fail(TEMPLATE_NOT_FOUND);
}
