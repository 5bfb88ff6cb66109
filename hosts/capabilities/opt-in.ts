import { ContainerModule, type ResolutionContext } from "inversify";
import { KnexOptInRepository } from "../../adapters/knex/repositories/opt-in-repository.js";
import { ResolveSender } from "../../core/company/resolve-sender.js";
import { QueueEmailSend } from "../../core/delivery/queue-email-send.js";
import { TemplateRepository } from "../../core/emails/ports.js";
import { RenderEmail } from "../../core/emails/render-email.js";
import { RecordCustomEvent } from "../../core/events/record-custom-event.js";
import { AskImportedContacts, AskImportedContactsJob } from "../../core/opt-in/ask-imported-contacts.js";
import { ConfirmSubscription } from "../../core/opt-in/confirm-subscription.js";
import { ConfirmationTokens } from "../../core/opt-in/confirmation-tokens.js";
import { OptInRepository } from "../../core/opt-in/ports.js";
import { RequestOptIn } from "../../core/opt-in/request-opt-in.js";
import { SendConfirmationEmail } from "../../core/opt-in/send-confirmation-email.js";
import { Clock } from "../../core/ports/clock.js";
import { TokenSigner } from "../../core/ports/token-signer.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { SuppressionRepository } from "../../core/suppressions/ports.js";
import { TenancyRepository } from "../../core/tenancy/ports.js";
import { TrackingLinks } from "../../core/tracking/tracking-links.js";
import { TrackingSettingsRepository } from "../../core/tracking-settings/ports.js";
import { bindClass } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/** Double opt-in: contacts waiting for their confirmation, the confirmation email and its link. */
export const optInModule = new ContainerModule((container) => {
  bindClass(container, KnexOptInRepository, [Database]);
  container.bind<OptInRepository>(OptInRepository).toService(KnexOptInRepository);
  bindClass(container, ConfirmationTokens, [TokenSigner]);
  bindClass(container, SendConfirmationEmail, [
    OptInRepository,
    TrackingSettingsRepository,
    TemplateRepository,
    TenancyRepository,
    SuppressionRepository,
    ConfirmationTokens,
    ResolveSender,
    RenderEmail,
    TrackingLinks,
    QueueEmailSend,
    Clock,
    BaseUrl,
  ]);
  bindClass(container, RequestOptIn, [OptInRepository, TrackingSettingsRepository, SendConfirmationEmail, Clock]);
  bindClass(container, ConfirmSubscription, [ConfirmationTokens, OptInRepository, SubscriberRepository, TenancyRepository, RecordCustomEvent, Clock]);
  bindClass(container, AskImportedContacts, [OptInRepository, SubscriberRepository, SendConfirmationEmail]);
  container.onActivation(JobHandlers, registerJobs);
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(AskImportedContactsJob, (work) => container.get(AskImportedContacts).runJob(work));
  return handlers;
}
