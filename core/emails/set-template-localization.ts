import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TransactionalEmailRepository } from "../transactional/ports.js";
import type { SetTemplateLocalizationCommand } from "./commands.js";
import { findTemplate } from "./find-template.js";
import { contentFingerprint } from "./localization.js";
import { toLocalizationView, type LocalizationView } from "./localization-view.js";
import { TEMPLATE_NOT_FOUND } from "./model.js";
import type { TemplateLocalizationRepository, TemplateRepository } from "./ports.js";
import { newContentFrom } from "./template-content.js";

/**
 * PUT /templates/{id}/localizations/{locale} (id: a template, or a transactional email's ID or
 * slug): creates or replaces the variant of that locale, written from the current default content.
 */
export class SetTemplateLocalization {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly transactional: TransactionalEmailRepository,
    private readonly localizations: TemplateLocalizationRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (
    actor: Actor,
    reference: string,
    locale: string,
    input: SetTemplateLocalizationCommand,
  ): Promise<Result<{ templateId: string; localization: LocalizationView }>> => {
    const content = newContentFrom(input);
    if (content._tag === "Left") return content;
    const template = await findTemplate(this.templates, this.transactional, actor.companyId, reference);
    if (!template) return fail(TEMPLATE_NOT_FOUND);
    const now = this.clock.now();
    const saved = await this.localizations.save({
      id: this.ids.next("tloc"),
      companyId: actor.companyId,
      templateId: template.id,
      locale,
      ...content.right,
      source: "manual",
      sourceFingerprint: contentFingerprint(template),
      createdAt: now,
      updatedAt: now,
    });
    return ok({ templateId: template.id, localization: toLocalizationView(saved, template) });
  };
}
