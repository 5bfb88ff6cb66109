import { KnexWebhookPublisher } from "../../adapters/knex/knex-webhook-publisher.js";
import { ContainerModule, type ResolutionContext } from "inversify";
import { KnexSubscriberImportRepository } from "../../adapters/knex/repositories/subscriber-import-repository.js";
import { Clock } from "../../core/ports/clock.js";
import { Delay } from "../../core/ports/delay.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { JobQueue } from "../../core/ports/job-queue.js";
import { AdvanceImport, AdvanceImportJob } from "../../core/subscriber-imports/advance-import.js";
import { CreateImport } from "../../core/subscriber-imports/create-import.js";
import { DirectImport } from "../../core/subscriber-imports/direct-import.js";
import { GetImport } from "../../core/subscriber-imports/get-import.js";
import { SubscriberImportRepository } from "../../core/subscriber-imports/ports.js";
import { ReadChunkContext } from "../../core/subscriber-imports/chunk-context.js";
import { Automations } from "../../core/ports/automations.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { TenancyRepository } from "../../core/tenancy/ports.js";
import { TrackingSettingsRepository } from "../../core/tracking-settings/ports.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/** Subscriber imports (API, job and CLI): repositories, use cases, job handlers. */
export const subscriberImportsModule = new ContainerModule((container) => {
  bindClass(container, KnexSubscriberImportRepository, [Database, IdGenerator, KnexWebhookPublisher]);
  container.bind<SubscriberImportRepository>(SubscriberImportRepository).toService(KnexSubscriberImportRepository);

  bindClass(container, CreateImport, [SubscriberImportRepository, SubscriberRepository, JobQueue, IdGenerator, Clock]);
  bindClass(container, GetImport, [SubscriberImportRepository]);
  bindClass(container, ReadChunkContext, [TrackingSettingsRepository, Automations]);
  bindClass(container, AdvanceImport, [SubscriberImportRepository, JobQueue, IdGenerator, Clock, ReadChunkContext]);
  bindClass(container, DirectImport, [SubscriberImportRepository, SubscriberRepository, TenancyRepository, IdGenerator, Clock, Delay, ReadChunkContext]);
  container.onActivation(JobHandlers, registerJobs);
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(AdvanceImportJob, (work, job) => container.get(AdvanceImport).runJob(work, job));
  return handlers;
}
