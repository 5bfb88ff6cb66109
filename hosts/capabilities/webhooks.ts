import { ContainerModule, type ResolutionContext } from "inversify";
import { HmacWebhookSigner } from "../../adapters/crypto/webhook-signatures.js";
import { KnexWebhookPublisher } from "../../adapters/knex/knex-webhook-publisher.js";
import { KnexWebhookRepository } from "../../adapters/knex/repositories/webhook-repository.js";
import { Clock } from "../../core/ports/clock.js";
import { DestinationHttpClient } from "../../core/ports/http-client.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { RandomTokens } from "../../core/ports/random-tokens.js";
import { SecretBox } from "../../core/ports/secret-box.js";
import { CreateWebhook } from "../../core/webhooks/create-webhook.js";
import { DeleteWebhook } from "../../core/webhooks/delete-webhook.js";
import { DeliverWebhook } from "../../core/webhooks/deliver-webhook.js";
import { WebhookDeliveryJob } from "../../core/webhooks/delivery-job.js";
import { GetWebhook } from "../../core/webhooks/get-webhook.js";
import { ListWebhookDeliveries } from "../../core/webhooks/list-webhook-deliveries.js";
import { ListWebhooks } from "../../core/webhooks/list-webhooks.js";
import { WebhookPublisher, WebhookRepository, WebhookSigner } from "../../core/webhooks/ports.js";
import { ReplayWebhookDelivery } from "../../core/webhooks/replay-webhook-delivery.js";
import { RotateWebhookSecret } from "../../core/webhooks/rotate-webhook-secret.js";
import { TestWebhook } from "../../core/webhooks/test-webhook.js";
import { UpdateWebhook } from "../../core/webhooks/update-webhook.js";
import { bindClass } from "../bind-class.js";
import { AllowPrivateDestinations, Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/**
 * Outbound webhooks: their routes' use cases, the publisher every event source hands its events
 * to (the email pipeline's and contacts' repositories publish through it in their transactions),
 * and the `webhook.deliver` job. Calls go through the destination client (public addresses only
 * unless ALLOW_PRIVATE_DESTINATIONS).
 */
export const webhooksModule = new ContainerModule((container) => {
  bindClass(container, KnexWebhookRepository, [Database, IdGenerator, Clock]);
  container.bind<WebhookRepository>(WebhookRepository).toService(KnexWebhookRepository);
  bindClass(container, KnexWebhookPublisher, [Database, IdGenerator, Clock]);
  container.bind<WebhookPublisher>(WebhookPublisher).toService(KnexWebhookPublisher);
  container.bind<WebhookSigner>(WebhookSigner).toConstantValue(new HmacWebhookSigner());

  bindClass(container, CreateWebhook, [WebhookRepository, SecretBox, IdGenerator, RandomTokens, Clock, AllowPrivateDestinations]);
  bindClass(container, ListWebhooks, [WebhookRepository, Clock]);
  bindClass(container, GetWebhook, [WebhookRepository, Clock]);
  bindClass(container, UpdateWebhook, [WebhookRepository, Clock, AllowPrivateDestinations]);
  bindClass(container, DeleteWebhook, [WebhookRepository]);
  bindClass(container, RotateWebhookSecret, [WebhookRepository, SecretBox, IdGenerator, RandomTokens, Clock]);
  bindClass(container, DeliverWebhook, [WebhookRepository, DestinationHttpClient, WebhookSigner, SecretBox, Clock]);
  bindClass(container, TestWebhook, [WebhookRepository, DeliverWebhook, IdGenerator, Clock]);
  bindClass(container, ListWebhookDeliveries, [WebhookRepository]);
  bindClass(container, ReplayWebhookDelivery, [WebhookRepository, IdGenerator, Clock]);
  container.onActivation(JobHandlers, registerJobs);
});

function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(WebhookDeliveryJob, (work) => container.get(DeliverWebhook).runJob(work));
  return handlers;
}
