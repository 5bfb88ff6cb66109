import { ContainerModule, type ResolutionContext } from "inversify";
import { KnexWarehouseConnectionRepository, KnexWarehouseSyncRepository } from "../../adapters/knex/repositories/warehouse-repository.js";
import { KindWarehouseReader } from "../../adapters/warehouse/warehouse-reader.js";
import { ListRepository } from "../../core/lists/ports.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { JobQueue } from "../../core/ports/job-queue.js";
import { SecretBox } from "../../core/ports/secret-box.js";
import { DirectImport } from "../../core/subscriber-imports/direct-import.js";
import { SubscriberImportRepository } from "../../core/subscriber-imports/ports.js";
import { CreateWarehouseConnection } from "../../core/warehouse/create-warehouse-connection.js";
import { CreateWarehouseSync } from "../../core/warehouse/create-warehouse-sync.js";
import { GetWarehouseSync } from "../../core/warehouse/get-warehouse-sync.js";
import { ListWarehouseConnections } from "../../core/warehouse/list-warehouse-connections.js";
import { ListWarehouseSyncRuns } from "../../core/warehouse/list-warehouse-sync-runs.js";
import { ListWarehouseSyncs } from "../../core/warehouse/list-warehouse-syncs.js";
import { WarehouseConnectionRepository, WarehouseReader, WarehouseSyncRepository } from "../../core/warehouse/ports.js";
import { QUEUE_DUE_WAREHOUSE_SYNCS_JOB, QueueDueWarehouseSyncs, SCHEDULER_INTERVAL_MS } from "../../core/warehouse/queue-due-warehouse-syncs.js";
import { QueueWarehouseSyncRun } from "../../core/warehouse/queue-warehouse-sync-run.js";
import { RunWarehouseSync, RunWarehouseSyncJob } from "../../core/warehouse/run-warehouse-sync.js";
import { UpdateWarehouseSync } from "../../core/warehouse/update-warehouse-sync.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { AllowPrivateDestinations, Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/** Warehouse connections and syncs: repositories, the warehouse reader, use cases, the run job and the scheduler. */
export const warehouseSyncsModule = new ContainerModule((container) => {
  bindClass(container, KnexWarehouseConnectionRepository, [Database]);
  container.bind<WarehouseConnectionRepository>(WarehouseConnectionRepository).toService(KnexWarehouseConnectionRepository);
  bindClass(container, KnexWarehouseSyncRepository, [Database]);
  container.bind<WarehouseSyncRepository>(WarehouseSyncRepository).toService(KnexWarehouseSyncRepository);
  bindFactory(container, WarehouseReader, (allowPrivate: boolean) => new KindWarehouseReader(allowPrivate), [AllowPrivateDestinations]);

  bindFactory(
    container,
    CreateWarehouseConnection,
    (connections: WarehouseConnectionRepository, reader: WarehouseReader, secrets: SecretBox, ids: IdGenerator, clock: Clock, allowPrivate: boolean) =>
      new CreateWarehouseConnection(connections, reader, secrets, ids, clock, allowPrivate),
    [WarehouseConnectionRepository, WarehouseReader, SecretBox, IdGenerator, Clock, AllowPrivateDestinations],
  );
  bindClass(container, ListWarehouseConnections, [WarehouseConnectionRepository]);
  bindClass(container, QueueWarehouseSyncRun, [WarehouseSyncRepository, SubscriberImportRepository, JobQueue, IdGenerator, Clock]);
  bindClass(container, CreateWarehouseSync, [
    WarehouseConnectionRepository,
    WarehouseSyncRepository,
    ListRepository,
    WarehouseReader,
    SecretBox,
    IdGenerator,
    Clock,
  ]);
  bindClass(container, GetWarehouseSync, [WarehouseSyncRepository, SubscriberImportRepository]);
  bindClass(container, ListWarehouseSyncs, [WarehouseSyncRepository, SubscriberImportRepository]);
  bindClass(container, ListWarehouseSyncRuns, [WarehouseSyncRepository, SubscriberImportRepository]);
  bindClass(container, UpdateWarehouseSync, [WarehouseSyncRepository, ListRepository, SubscriberImportRepository, Clock]);
  bindClass(container, RunWarehouseSync, [
    WarehouseSyncRepository,
    WarehouseConnectionRepository,
    ListRepository,
    WarehouseReader,
    SecretBox,
    SubscriberImportRepository,
    DirectImport,
    IdGenerator,
    Clock,
  ]);
  bindClass(container, QueueDueWarehouseSyncs, [WarehouseSyncRepository, QueueWarehouseSyncRun, Clock]);
  container.onActivation(JobHandlers, registerJobs);
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(RunWarehouseSyncJob, (work, job) => container.get(RunWarehouseSync).runJob(work, job));
  // Scheduled runs: due syncs are looked for every minute and queued per their frequency.
  handlers.register(QUEUE_DUE_WAREHOUSE_SYNCS_JOB, async () => {
    await container.get(QueueDueWarehouseSyncs).execute();
  });
  handlers.schedule({ name: QUEUE_DUE_WAREHOUSE_SYNCS_JOB, everyMs: SCHEDULER_INTERVAL_MS, job: { type: QUEUE_DUE_WAREHOUSE_SYNCS_JOB } });
  return handlers;
}
