import * as t from "io-ts";
import { defineJob, UnrunnableJob, type WorkOf } from "../jobs/job-definition.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import { contentFingerprint } from "./localization.js";
import { TranslationError, type TemplateLocalizationRepository, type TemplateRepository, type Translator } from "./ports.js";
import { protectMergeTags, translatableTexts, withTexts } from "./translatable-texts.js";

export const TranslateTemplateJob = defineJob({
  type: "emails.translate_template",
  company: "required",
  payload: t.type({ templateId: t.string, locales: t.array(t.string) }),
  maxAttempts: 5,
});

/**
 * Runs a localization sync (POST /templates/{id}/localizations/sync): translates the template's
 * current default content into each locale and saves it as that locale's variant (source
 * `translated`, synced with the content it was made from), replacing what was there. A template
 * deleted since is skipped. A failure the service may get over is retried; one it cannot (an
 * unsupported locale) buries the job, leaving the locales done so far in place.
 */
export class TranslateTemplate {
  constructor(
    private readonly templates: TemplateRepository,
    private readonly localizations: TemplateLocalizationRepository,
    private readonly translator: Translator,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  runJob = async ({ companyId, payload }: WorkOf<typeof TranslateTemplateJob>): Promise<void> => {
    const template = await this.templates.find(companyId, payload.templateId);
    if (!template) return;
    const texts = translatableTexts(template).map(({ text, format }) => ({ protection: protectMergeTags(text), format }));
    for (const locale of payload.locales) {
      let translated: string[];
      try {
        translated = await this.translator.translate(
          texts.map(({ protection, format }) => ({ text: protection.text, format })),
          locale,
        );
      } catch (error) {
        if (error instanceof TranslationError && error.permanent)
          throw new UnrunnableJob(`translating template ${template.id} into ${locale}: ${error.message}`);
        throw error;
      }
      const now = this.clock.now();
      await this.localizations.save({
        id: this.ids.next("tloc"),
        companyId,
        templateId: template.id,
        locale,
        ...withTexts(
          template,
          texts.map(({ protection }, index) => protection.restore(translated[index] ?? protection.text)),
        ),
        source: "translated",
        sourceFingerprint: contentFingerprint(template),
        createdAt: now,
        updatedAt: now,
      });
    }
  };
}
