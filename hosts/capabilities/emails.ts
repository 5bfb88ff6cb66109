import { ContainerModule, type ResolutionContext } from "inversify";
import { FetchHttpClient } from "../../adapters/http/fetch-http-client.js";
import { KnexEmailBrandingSource } from "../../adapters/knex/repositories/email-branding-source.js";
import { KnexEmailComponentRepository } from "../../adapters/knex/repositories/email-component-repository.js";
import { KnexTemplateLocalizationRepository } from "../../adapters/knex/repositories/template-localization-repository.js";
import { KnexTemplateRepository } from "../../adapters/knex/repositories/template-repository.js";
import { KnexTemplateShareLinkRepository } from "../../adapters/knex/repositories/template-share-link-repository.js";
import { MjmlEmailRenderer } from "../../adapters/render/mjml-email-renderer.js";
import { LibreTranslateTranslator, type TranslationService } from "../../adapters/translation/libre-translate-translator.js";
import { NoTranslator } from "../../adapters/translation/no-translator.js";
import { CreateEmailComponent } from "../../core/emails/create-email-component.js";
import { CreateTemplate } from "../../core/emails/create-template.js";
import { DeleteEmailComponent } from "../../core/emails/delete-email-component.js";
import { DeleteTemplate } from "../../core/emails/delete-template.js";
import { EmailRenderer } from "../../core/emails/email-renderer.js";
import { GetDefaultComponent } from "../../core/emails/get-default-component.js";
import { GetEmailComponent } from "../../core/emails/get-email-component.js";
import { GetTemplate } from "../../core/emails/get-template.js";
import { ListEmailComponents } from "../../core/emails/list-email-components.js";
import { ListTemplates } from "../../core/emails/list-templates.js";
import {
  EmailBrandingSource,
  EmailComponentRepository,
  TemplateLocalizationRepository,
  TemplateRepository,
  TemplateShareLinkRepository,
  Translator,
} from "../../core/emails/ports.js";
import { PreviewDefaultComponent } from "../../core/emails/preview-default-component.js";
import { PreviewTemplate } from "../../core/emails/preview-template.js";
import { RenderEmail } from "../../core/emails/render-email.js";
import { SetDefaultComponent } from "../../core/emails/set-default-component.js";
import { SetTemplateLocalization } from "../../core/emails/set-template-localization.js";
import { ShareTemplate } from "../../core/emails/share-template.js";
import { ShowSharedEmail } from "../../core/emails/show-shared-email.js";
import { SyncTemplateLocalizations } from "../../core/emails/sync-template-localizations.js";
import { TranslateTemplate, TranslateTemplateJob } from "../../core/emails/translate-template.js";
import { UnshareTemplate } from "../../core/emails/unshare-template.js";
import { UpdateEmailComponent } from "../../core/emails/update-email-component.js";
import { UpdateTemplate } from "../../core/emails/update-template.js";
import { Clock } from "../../core/ports/clock.js";
import { HttpClient } from "../../core/ports/http-client.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { JobQueue } from "../../core/ports/job-queue.js";
import { RandomTokens } from "../../core/ports/random-tokens.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { TransactionalEmailRepository } from "../../core/transactional/ports.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { BaseUrl, Database, TranslationSettings } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/** Email content and rendering: templates (with share links and localized variants), email components, the renderer and RenderEmail. */
export const emailsModule = new ContainerModule((container) => {
  bindClass(container, KnexTemplateRepository, [Database]);
  container.bind<TemplateRepository>(TemplateRepository).toService(KnexTemplateRepository);
  bindClass(container, KnexEmailComponentRepository, [Database]);
  container.bind<EmailComponentRepository>(EmailComponentRepository).toService(KnexEmailComponentRepository);
  bindClass(container, KnexEmailBrandingSource, [Database]);
  container.bind<EmailBrandingSource>(EmailBrandingSource).toService(KnexEmailBrandingSource);
  bindClass(container, KnexTemplateShareLinkRepository, [Database]);
  container.bind<TemplateShareLinkRepository>(TemplateShareLinkRepository).toService(KnexTemplateShareLinkRepository);
  bindClass(container, KnexTemplateLocalizationRepository, [Database]);
  container.bind<TemplateLocalizationRepository>(TemplateLocalizationRepository).toService(KnexTemplateLocalizationRepository);
  // Machine translation for localization syncs, when the operator names a service (TRANSLATION_URL).
  if (!container.isBound(HttpClient)) container.bind<HttpClient>(HttpClient).toConstantValue(new FetchHttpClient());
  bindFactory(
    container,
    Translator,
    (settings: TranslationService | undefined, http: HttpClient): Translator => (settings ? new LibreTranslateTranslator(settings, http) : new NoTranslator()),
    [TranslationSettings, HttpClient],
  );
  container.bind<EmailRenderer>(EmailRenderer).toConstantValue(new MjmlEmailRenderer());

  bindClass(container, ListTemplates, [TemplateRepository]);
  bindClass(container, GetTemplate, [TemplateRepository, TemplateShareLinkRepository, TemplateLocalizationRepository, BaseUrl]);
  bindClass(container, CreateTemplate, [TemplateRepository, IdGenerator, Clock]);
  bindClass(container, UpdateTemplate, [TemplateRepository, Clock]);
  bindClass(container, DeleteTemplate, [TemplateRepository, Clock]);
  bindClass(container, ShareTemplate, [TemplateRepository, TransactionalEmailRepository, TemplateShareLinkRepository, RandomTokens, Clock, BaseUrl]);
  bindClass(container, UnshareTemplate, [TemplateRepository, TransactionalEmailRepository, TemplateShareLinkRepository]);
  bindClass(container, SetTemplateLocalization, [TemplateRepository, TransactionalEmailRepository, TemplateLocalizationRepository, IdGenerator, Clock]);
  bindClass(container, SyncTemplateLocalizations, [TemplateRepository, TransactionalEmailRepository, TemplateLocalizationRepository, Translator, JobQueue]);
  bindClass(container, TranslateTemplate, [TemplateRepository, TemplateLocalizationRepository, Translator, IdGenerator, Clock]);

  bindClass(container, ListEmailComponents, [EmailComponentRepository]);
  bindClass(container, GetEmailComponent, [EmailComponentRepository]);
  bindClass(container, CreateEmailComponent, [EmailComponentRepository, IdGenerator, Clock]);
  bindClass(container, UpdateEmailComponent, [EmailComponentRepository, Clock]);
  bindClass(container, DeleteEmailComponent, [EmailComponentRepository]);
  bindClass(container, GetDefaultComponent, [EmailComponentRepository]);
  bindClass(container, SetDefaultComponent, [EmailComponentRepository, IdGenerator, Clock]);

  bindClass(container, RenderEmail, [EmailBrandingSource, EmailComponentRepository, EmailRenderer]);
  bindClass(container, PreviewTemplate, [TemplateRepository, SubscriberRepository, TemplateLocalizationRepository, RenderEmail, BaseUrl]);
  bindClass(container, ShowSharedEmail, [TemplateShareLinkRepository, TemplateRepository, TemplateLocalizationRepository, RenderEmail, BaseUrl]);
  bindClass(container, PreviewDefaultComponent, [TemplateRepository, SubscriberRepository, RenderEmail, BaseUrl]);
  container.onActivation(JobHandlers, registerJobs);
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(TranslateTemplateJob, (work) => container.get(TranslateTemplate).runJob(work));
  return handlers;
}
