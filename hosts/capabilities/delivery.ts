import { ContainerModule, type ResolutionContext } from "inversify";
import type { Knex } from "knex";
import { newWebhookSecret } from "../../adapters/crypto/webhook-signatures.js";
import { mailTransportFromUrl } from "../../adapters/mail/mail-transport-from-url.js";
import { HttpsSnsSubscriptions } from "../../adapters/aws-sns/https-sns-subscriptions.js";
import { SnsSignatureVerifier } from "../../adapters/aws-sns/sns-signature-verifier.js";
import { KnexDeliveryWebhookSecrets } from "../../adapters/knex/repositories/delivery-webhook-secrets.js";
import { KnexDkimKeys } from "../../adapters/knex/repositories/dkim-keys.js";
import { KnexSesTopicPins } from "../../adapters/knex/repositories/ses-topic-pins.js";
import { ReceiveSesNotification } from "../../core/delivery/receive-ses-notification.js";
import { UnpinSesTopic } from "../../core/delivery/unpin-ses-topic.js";
import { KnexEmailSendRepository } from "../../adapters/knex/repositories/email-send-repository.js";
import { KnexWebhookPublisher } from "../../adapters/knex/knex-webhook-publisher.js";
import { KnexSuppressionRepository } from "../../adapters/knex/repositories/suppression-repository.js";
import { KnexSuppressionQueries } from "../../adapters/knex/repositories/suppression-queries.js";
import { CreateDeliveryWebhookSecret, OpenDeliveryWebhookSecret } from "../../core/delivery/create-delivery-webhook-secret.js";
import { DeliverEmail } from "../../core/delivery/deliver-email.js";
import { OptInRepository } from "../../core/opt-in/ports.js";
import { MailTransport } from "../../core/delivery/mail-transport.js";
import { DeliveryWebhookSecrets, DkimKeys, EmailSendRepository, SesTopicPins, SnsSubscriptions, SnsVerifier } from "../../core/delivery/ports.js";
import { DeliverEmailsJob, QueueEmailSend } from "../../core/delivery/queue-email-send.js";
import { RecordDeliveryEvent } from "../../core/delivery/record-delivery-event.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { SecretBox } from "../../core/ports/secret-box.js";
import { EvaluateSendingHealth } from "../../core/sending-health/evaluate-sending-health.js";
import { SendingGate } from "../../core/sending-health/sending-gate.js";
import { GetSuppression } from "../../core/suppressions/get-suppression.js";
import { ListSuppressions } from "../../core/suppressions/list-suppressions.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { SuppressionRepository } from "../../core/suppressions/ports.js";
import { RemoveSuppression } from "../../core/suppressions/remove-suppression.js";
import { SuppressionQueries } from "../../core/suppressions/suppression-queries.js";
import { TenancyRepository } from "../../core/tenancy/ports.js";
import { Automations } from "../../core/ports/automations.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { BaseUrl, Database, Disposables, MailUrl } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/**
 * Delivery: the mail transport MAIL_URL names, email sends and their `email.deliver` job,
 * provider delivery events and the suppression list routes.
 */
export const deliveryModule = new ContainerModule((container) => {
  // Opened on first use (a pooled SMTP connection only when mail is sent), closed with the runtime.
  bindFactory(
    container,
    MailTransport,
    (mailUrl: string, disposables: Disposables) => {
      const transport = mailTransportFromUrl(mailUrl);
      disposables.push(() => transport.close());
      return transport;
    },
    [MailUrl, Disposables],
  );

  bindClass(container, KnexEmailSendRepository, [Database, IdGenerator, KnexWebhookPublisher]);
  container.bind<EmailSendRepository>(EmailSendRepository).toService(KnexEmailSendRepository);
  bindFactory(container, DkimKeys, (knex: Knex, box: SecretBox) => new KnexDkimKeys(knex, box), [Database, SecretBox]);
  bindFactory(container, DeliveryWebhookSecrets, (knex: Knex) => new KnexDeliveryWebhookSecrets(knex), [Database]);
  bindFactory(container, SesTopicPins, (knex: Knex) => new KnexSesTopicPins(knex), [Database]);
  container.bind<SnsVerifier>(SnsVerifier).toConstantValue(new SnsSignatureVerifier());
  container.bind<SnsSubscriptions>(SnsSubscriptions).toConstantValue(new HttpsSnsSubscriptions());
  bindFactory(container, SuppressionQueries, (knex: Knex) => new KnexSuppressionQueries(knex), [Database]);

  // The suppression list's repository: bound here unless a capability before this one did.
  if (!container.isBound(SuppressionRepository)) {
    bindFactory(container, SuppressionRepository, (knex: Knex, ids: IdGenerator) => new KnexSuppressionRepository(knex, ids), [Database, IdGenerator]);
  }

  bindClass(container, QueueEmailSend, [EmailSendRepository, IdGenerator, Clock]);
  bindClass(container, DeliverEmail, [EmailSendRepository, SuppressionRepository, DkimKeys, MailTransport, SendingGate, OptInRepository, IdGenerator, Clock]);
  bindClass(container, RecordDeliveryEvent, [
    EmailSendRepository,
    SuppressionRepository,
    SubscriberRepository,
    TenancyRepository,
    EvaluateSendingHealth,
    Automations,
    IdGenerator,
    Clock,
  ]);
  bindFactory(
    container,
    CreateDeliveryWebhookSecret,
    (secrets: DeliveryWebhookSecrets, box: SecretBox, clock: Clock, baseUrl: string) =>
      new CreateDeliveryWebhookSecret(secrets, box, clock, baseUrl, newWebhookSecret),
    [DeliveryWebhookSecrets, SecretBox, Clock, BaseUrl],
  );
  bindClass(container, OpenDeliveryWebhookSecret, [DeliveryWebhookSecrets, SecretBox]);
  bindClass(container, ReceiveSesNotification, [SnsVerifier, SnsSubscriptions, SesTopicPins, RecordDeliveryEvent, Clock]);
  bindClass(container, UnpinSesTopic, [SesTopicPins]);

  bindClass(container, ListSuppressions, [SuppressionQueries]);
  bindClass(container, GetSuppression, [SuppressionRepository]);
  bindClass(container, RemoveSuppression, [SuppressionRepository, SubscriberRepository, Clock]);
  container.onActivation(JobHandlers, registerJobs);
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(DeliverEmailsJob, (work, job) => container.get(DeliverEmail).runJob(work, job));
  return handlers;
}
