import { ContainerModule, type ResolutionContext } from "inversify";
import { ProviderWebhookSignatures } from "../../adapters/crypto/provider-webhook-signatures.js";
import { FetchHttpClient } from "../../adapters/http/fetch-http-client.js";
import { HttpProviderApis } from "../../adapters/integration-providers/provider-apis.js";
import { KnexIntegrationDeliveryRepository } from "../../adapters/knex/repositories/integration-delivery-repository.js";
import { KnexIntegrationRepository } from "../../adapters/knex/repositories/integration-repository.js";
import { RecordCustomEvent } from "../../core/events/record-custom-event.js";
import { ResolveEventContact } from "../../core/events/resolve-event-contact.js";
import { ConnectIntegration } from "../../core/integrations/connect-integration.js";
import { DisconnectIntegration } from "../../core/integrations/disconnect-integration.js";
import { GetIntegration } from "../../core/integrations/get-integration.js";
import { GetIntegrationCatalog } from "../../core/integrations/get-integration-catalog.js";
import { ProcessDeliveryJob, RunSyncJob } from "../../core/integrations/jobs.js";
import { ListIntegrationActivity } from "../../core/integrations/list-integration-activity.js";
import { ListIntegrations } from "../../core/integrations/list-integrations.js";
import { IntegrationDeliveryRepository, IntegrationRepository, ProviderApis, WebhookSignatures } from "../../core/integrations/ports.js";
import { ProcessProviderDelivery } from "../../core/integrations/process-provider-delivery.js";
import { QueueSync } from "../../core/integrations/queue-sync.js";
import { ReceiveProviderWebhook } from "../../core/integrations/receive-provider-webhook.js";
import { RecordProviderActivity } from "../../core/integrations/record-provider-activity.js";
import { RequestIntegrationSync } from "../../core/integrations/request-integration-sync.js";
import { RunIntegrationSync } from "../../core/integrations/run-integration-sync.js";
import { UpdateIntegration } from "../../core/integrations/update-integration.js";
import { ListRepository } from "../../core/lists/ports.js";
import { Clock } from "../../core/ports/clock.js";
import { HttpClient } from "../../core/ports/http-client.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { JobQueue } from "../../core/ports/job-queue.js";
import { SecretBox } from "../../core/ports/secret-box.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/** Integrations: connections with sealed credentials, provider webhooks, and the jobs that apply them and sync history. */
export const integrationsModule = new ContainerModule((container) => {
  bindClass(container, KnexIntegrationRepository, [Database]);
  container.bind<IntegrationRepository>(IntegrationRepository).toService(KnexIntegrationRepository);
  bindClass(container, KnexIntegrationDeliveryRepository, [Database]);
  container.bind<IntegrationDeliveryRepository>(IntegrationDeliveryRepository).toService(KnexIntegrationDeliveryRepository);
  container.bind<WebhookSignatures>(WebhookSignatures).toConstantValue(new ProviderWebhookSignatures());
  // Provider APIs live at fixed origins (Chargebee's site name is checked as one host label): the
  // provider client, as migrations use it (deadline, capped body, redirects handed back, never followed).
  if (!container.isBound(HttpClient)) container.bind<HttpClient>(HttpClient).toConstantValue(new FetchHttpClient());
  bindFactory(container, ProviderApis, (http: HttpClient) => new HttpProviderApis(http), [HttpClient]);

  bindClass(container, QueueSync, [IntegrationRepository, ProviderApis, JobQueue, Clock]);
  bindClass(container, ConnectIntegration, [IntegrationRepository, ProviderApis, QueueSync, SecretBox, IdGenerator, Clock, BaseUrl]);
  bindClass(container, ListIntegrations, [IntegrationRepository]);
  bindClass(container, GetIntegration, [IntegrationRepository, IntegrationDeliveryRepository, ProviderApis, Clock, BaseUrl]);
  bindClass(container, GetIntegrationCatalog, []);
  bindClass(container, ListIntegrationActivity, [IntegrationDeliveryRepository, Clock]);
  bindClass(container, UpdateIntegration, [IntegrationRepository, ListRepository, Clock]);
  bindClass(container, RequestIntegrationSync, [IntegrationRepository, QueueSync]);
  bindClass(container, DisconnectIntegration, [IntegrationRepository, SecretBox, Clock]);
  bindClass(container, ReceiveProviderWebhook, [
    IntegrationRepository,
    IntegrationDeliveryRepository,
    WebhookSignatures,
    SecretBox,
    JobQueue,
    IdGenerator,
    Clock,
  ]);
  bindClass(container, RecordProviderActivity, [ResolveEventContact, RecordCustomEvent, ProviderApis]);
  bindClass(container, ProcessProviderDelivery, [IntegrationRepository, IntegrationDeliveryRepository, RecordProviderActivity, SecretBox, Clock]);
  bindClass(container, RunIntegrationSync, [IntegrationRepository, ProviderApis, RecordProviderActivity, SecretBox, JobQueue, Clock]);
  container.onActivation(JobHandlers, registerJobs);
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(ProcessDeliveryJob, (work, job) => container.get(ProcessProviderDelivery).runJob(work, job));
  handlers.register(RunSyncJob, (work, job) => container.get(RunIntegrationSync).runJob(work, job));
  return handlers;
}
