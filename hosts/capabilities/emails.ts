import { ContainerModule } from "inversify";
import { KnexEmailBrandingSource } from "../../adapters/knex/repositories/email-branding-source.js";
import { KnexEmailComponentRepository } from "../../adapters/knex/repositories/email-component-repository.js";
import { KnexTemplateRepository } from "../../adapters/knex/repositories/template-repository.js";
import { MjmlEmailRenderer } from "../../adapters/render/mjml-email-renderer.js";
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
import { EmailBrandingSource, EmailComponentRepository, TemplateRepository } from "../../core/emails/ports.js";
import { PreviewTemplate } from "../../core/emails/preview-template.js";
import { RenderEmail } from "../../core/emails/render-email.js";
import { SetDefaultComponent } from "../../core/emails/set-default-component.js";
import { UpdateEmailComponent } from "../../core/emails/update-email-component.js";
import { UpdateTemplate } from "../../core/emails/update-template.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { bindClass } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";

/** Email content and rendering: templates, email components, the renderer and RenderEmail. */
export const emailsModule = new ContainerModule(({ bind }) => {
  bindClass(bind, KnexTemplateRepository, [Database]);
  bind<TemplateRepository>(TemplateRepository).toService(KnexTemplateRepository);
  bindClass(bind, KnexEmailComponentRepository, [Database]);
  bind<EmailComponentRepository>(EmailComponentRepository).toService(KnexEmailComponentRepository);
  bindClass(bind, KnexEmailBrandingSource, [Database]);
  bind<EmailBrandingSource>(EmailBrandingSource).toService(KnexEmailBrandingSource);
  bind<EmailRenderer>(EmailRenderer).toConstantValue(new MjmlEmailRenderer());

  bindClass(bind, ListTemplates, [TemplateRepository]);
  bindClass(bind, GetTemplate, [TemplateRepository]);
  bindClass(bind, CreateTemplate, [TemplateRepository, IdGenerator, Clock]);
  bindClass(bind, UpdateTemplate, [TemplateRepository, Clock]);
  bindClass(bind, DeleteTemplate, [TemplateRepository, Clock]);

  bindClass(bind, ListEmailComponents, [EmailComponentRepository]);
  bindClass(bind, GetEmailComponent, [EmailComponentRepository]);
  bindClass(bind, CreateEmailComponent, [EmailComponentRepository, IdGenerator, Clock]);
  bindClass(bind, UpdateEmailComponent, [EmailComponentRepository, Clock]);
  bindClass(bind, DeleteEmailComponent, [EmailComponentRepository]);
  bindClass(bind, GetDefaultComponent, [EmailComponentRepository]);
  bindClass(bind, SetDefaultComponent, [EmailComponentRepository, IdGenerator, Clock]);

  bindClass(bind, RenderEmail, [EmailBrandingSource, EmailComponentRepository, EmailRenderer]);
  bindClass(bind, PreviewTemplate, [TemplateRepository, SubscriberRepository, RenderEmail, BaseUrl]);
});
