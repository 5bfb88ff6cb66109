import { ContainerModule, type ResolutionContext } from "inversify";
import { FetchHttpClient } from "../../adapters/http/fetch-http-client.js";
import { KnexCampaignDraftRepository } from "../../adapters/knex/repositories/campaign-draft-repository.js";
import { KnexMigrationRunRepository } from "../../adapters/knex/repositories/migration-run-repository.js";
import { ProviderMigrationSources } from "../../adapters/migration-sources/provider-migration-sources.js";
import { TemplateRepository } from "../../core/emails/ports.js";
import { AdvanceMigration, AdvanceMigrationJob } from "../../core/migrations/advance-migration.js";
import { CancelMigration } from "../../core/migrations/cancel-migration.js";
import { CreateMigration } from "../../core/migrations/create-migration.js";
import { GetMigrationRun } from "../../core/migrations/get-migration-run.js";
import { CampaignDraftRepository, MigrationRunRepository, MigrationSources } from "../../core/migrations/ports.js";
import { StartMigration } from "../../core/migrations/start-migration.js";
import { Clock } from "../../core/ports/clock.js";
import { HttpClient } from "../../core/ports/http-client.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { JobQueue } from "../../core/ports/job-queue.js";
import { SecretBox } from "../../core/ports/secret-box.js";
import { DirectImport } from "../../core/subscriber-imports/direct-import.js";
import { SubscriberImportRepository } from "../../core/subscriber-imports/ports.js";
import { TenancyRepository } from "../../core/tenancy/ports.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { csvRowMapper } from "../../core/subscriber-imports/csv-rows.js";
import { AllowPrivateDestinations, Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/** Migrations from another provider: sources, repositories, use cases and the job that runs them. */
export const migrationsModule = new ContainerModule((container) => {
  // Outbound calls to provider APIs (shared with any capability that binds it first).
  if (!container.isBound(HttpClient)) container.bind<HttpClient>(HttpClient).toConstantValue(new FetchHttpClient());
  bindFactory(container, MigrationSources, (http: HttpClient) => new ProviderMigrationSources(http, csvRowMapper), [HttpClient]);

  bindClass(container, KnexMigrationRunRepository, [Database]);
  container.bind<MigrationRunRepository>(MigrationRunRepository).toService(KnexMigrationRunRepository);
  bindClass(container, KnexCampaignDraftRepository, [Database]);
  container.bind<CampaignDraftRepository>(CampaignDraftRepository).toService(KnexCampaignDraftRepository);

  bindClass(container, CreateMigration, [MigrationRunRepository, MigrationSources, SecretBox, IdGenerator, Clock, AllowPrivateDestinations]);
  bindClass(container, GetMigrationRun, [MigrationRunRepository, TenancyRepository]);
  bindClass(container, StartMigration, [MigrationRunRepository, TenancyRepository, JobQueue, Clock]);
  bindClass(container, CancelMigration, [MigrationRunRepository, TenancyRepository, Clock]);
  bindClass(container, AdvanceMigration, [
    MigrationRunRepository,
    MigrationSources,
    SecretBox,
    SubscriberImportRepository,
    DirectImport,
    TemplateRepository,
    CampaignDraftRepository,
    JobQueue,
    IdGenerator,
    Clock,
  ]);
  container.onActivation(JobHandlers, registerJobs);
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(AdvanceMigrationJob, (work, job) => container.get(AdvanceMigration).runJob(work, job));
  return handlers;
}
