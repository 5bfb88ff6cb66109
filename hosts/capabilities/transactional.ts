import { ContainerModule } from "inversify";
import { KnexTransactionalEmailRepository } from "../../adapters/knex/repositories/transactional-email-repository.js";
import { ResolveSender } from "../../core/company/resolve-sender.js";
import { QueueEmailSend } from "../../core/delivery/queue-email-send.js";
import { TemplateLocalizationRepository, TemplateRepository } from "../../core/emails/ports.js";
import { RenderEmail } from "../../core/emails/render-email.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { TrackingLinks } from "../../core/tracking/tracking-links.js";
import { TrackingSettingsRepository } from "../../core/tracking-settings/ports.js";
import { CreateTransactionalEmail } from "../../core/transactional/create-transactional-email.js";
import { DeleteTransactionalEmail } from "../../core/transactional/delete-transactional-email.js";
import { EmailRenderer } from "../../core/emails/email-renderer.js";
import { GetTransactionalEmail } from "../../core/transactional/get-transactional-email.js";
import { MetricsQueries } from "../../core/metrics/ports.js";
import { ListTransactionalEmails } from "../../core/transactional/list-transactional-emails.js";
import { TransactionalEmailRepository } from "../../core/transactional/ports.js";
import { SendTransactional } from "../../core/transactional/send-transactional.js";
import { UpdateTransactionalEmail } from "../../core/transactional/update-transactional-email.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";

/** Saved transactional emails and the transactional send (content, sender, tracking and delivery come from their capabilities). */
export const transactionalModule = new ContainerModule((container) => {
  bindClass(container, KnexTransactionalEmailRepository, [Database]);
  container.bind<TransactionalEmailRepository>(TransactionalEmailRepository).toService(KnexTransactionalEmailRepository);
  bindClass(container, CreateTransactionalEmail, [TransactionalEmailRepository, TemplateRepository, IdGenerator, Clock]);
  bindClass(container, GetTransactionalEmail, [TransactionalEmailRepository, TemplateRepository, EmailRenderer]);
  bindClass(container, ListTransactionalEmails, [TransactionalEmailRepository, TemplateRepository, MetricsQueries]);
  bindClass(container, UpdateTransactionalEmail, [TransactionalEmailRepository, TemplateRepository, Clock]);
  bindClass(container, DeleteTransactionalEmail, [TransactionalEmailRepository, Clock]);
  bindClass(container, SendTransactional, [
    TransactionalEmailRepository,
    TemplateRepository,
    TemplateLocalizationRepository,
    SubscriberRepository,
    ResolveSender,
    RenderEmail,
    TrackingLinks,
    QueueEmailSend,
    TrackingSettingsRepository,
  ]);
});
