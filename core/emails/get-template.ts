import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { toTemplateDetailView, type TemplateDetailView } from "./localization-view.js";
import { TEMPLATE_NOT_FOUND } from "./model.js";
import type { TemplateLocalizationRepository, TemplateRepository, TemplateShareLinkRepository } from "./ports.js";
import { shareUrlOf } from "./share-link.js";

/** GET /templates/{templateId}: the content, its share link (shareUrl, null when none) and its localized variants. */
export class GetTemplate {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly shareLinks: TemplateShareLinkRepository,
    private readonly localizations: TemplateLocalizationRepository,
    private readonly baseUrl: string,
  ) {}

  execute = async (actor: Actor, templateId: string): Promise<Result<TemplateDetailView>> => {
    const template = await this.templates.find(actor.companyId, templateId);
    if (!template) return fail(TEMPLATE_NOT_FOUND);
    const [link, localizations] = await Promise.all([
      this.shareLinks.find(actor.companyId, template.id),
      this.localizations.list(actor.companyId, template.id),
    ]);
    return ok(toTemplateDetailView(template, link ? shareUrlOf(this.baseUrl, link.token) : null, localizations));
  };
}
