import type { JobQueue } from "../ports/job-queue.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TransactionalEmailRepository } from "../transactional/ports.js";
import type { SyncTemplateLocalizationsCommand } from "./commands.js";
import { findTemplate } from "./find-template.js";
import { syncStatusOf } from "./localization.js";
import { TEMPLATE_NOT_FOUND } from "./model.js";
import type { TemplateLocalizationRepository, TemplateRepository, Translator } from "./ports.js";
import { TranslateTemplateJob } from "./translate-template.js";

export const TRANSLATION_NOT_CONFIGURED = badRequest(
  "Automatic translation is not configured on this server (TRANSLATION_URL): write each variant with PUT /api/v1/templates/{templateId}/localizations/{locale}",
  { code: "translation_not_configured" },
);

export interface QueuedSync {
  readonly templateId: string;
  readonly queuedLocales: readonly string[];
  readonly queuedVariantCount: number;
}

/**
 * POST /templates/{id}/localizations/sync (id: a template, or a transactional email's ID or
 * slug): queues machine translation of the default content into the given locales (created or
 * replaced), or, without locales, into every locale whose variant is outdated. Hand-written
 * variants named or outdated are replaced too: that is what a sync asks for.
 */
export class SyncTemplateLocalizations {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly transactional: TransactionalEmailRepository,
    private readonly localizations: TemplateLocalizationRepository,
    private readonly translator: Translator,
    private readonly queue: JobQueue,
  ) {}

  execute = async (actor: Actor, reference: string, input: SyncTemplateLocalizationsCommand): Promise<Result<QueuedSync>> => {
    const template = await findTemplate(this.templates, this.transactional, actor.companyId, reference);
    if (!template) return fail(TEMPLATE_NOT_FOUND);
    if (!this.translator.configured) return fail(TRANSLATION_NOT_CONFIGURED);
    const locales = input.locales
      ? [...new Set(input.locales)]
      : (await this.localizations.list(actor.companyId, template.id))
          .filter((localization) => syncStatusOf(localization, template) === "outdated")
          .map((localization) => localization.locale);
    if (locales.length > 0) await this.queue.enqueue(TranslateTemplateJob.request({ templateId: template.id, locales }, { companyId: actor.companyId }));
    return ok({ templateId: template.id, queuedLocales: locales, queuedVariantCount: locales.length });
  };
}
