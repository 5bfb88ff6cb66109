import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TransactionalEmailRepository } from "../transactional/ports.js";
import { findTemplate } from "./find-template.js";
import { TEMPLATE_NOT_FOUND } from "./model.js";
import type { TemplateRepository, TemplateShareLinkRepository } from "./ports.js";

/** DELETE /templates/{id}/share-link: the public URL stops working at once; revoked is false when there was no live link. */
export class UnshareTemplate {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly transactional: TransactionalEmailRepository,
    private readonly shareLinks: TemplateShareLinkRepository,
  ) {}

  execute = async (actor: Actor, reference: string): Promise<Result<{ templateId: string; revoked: boolean }>> => {
    const template = await findTemplate(this.templates, this.transactional, actor.companyId, reference);
    if (!template) return fail(TEMPLATE_NOT_FOUND);
    return ok({ templateId: template.id, revoked: await this.shareLinks.delete(actor.companyId, template.id) });
  };
}
