import { ContainerModule, type ResolutionContext } from "inversify";
import { NodeGzip } from "../../adapters/compression/node-gzip.js";
import { KnexDataExportRepository } from "../../adapters/knex/repositories/data-export-repository.js";
import { KnexExportSource } from "../../adapters/knex/repositories/export-source.js";
import { NodePrivateKeyReader } from "../../adapters/crypto/node-private-key-reader.js";
import { BucketWriterByCredentials } from "../../adapters/gcs/bucket-writer-by-credentials.js";
import { GcsBucketWriter } from "../../adapters/gcs/gcs-bucket-writer.js";
import { S3BucketWriter } from "../../adapters/s3/s3-bucket-writer.js";
import { CreateDataExport } from "../../core/data-exports/create-data-export.js";
import { DeleteDataExport } from "../../core/data-exports/delete-data-export.js";
import { DispatchDueExports } from "../../core/data-exports/dispatch-due-exports.js";
import { GetDataExport } from "../../core/data-exports/get-data-export.js";
import { ListDataExportRuns } from "../../core/data-exports/list-data-export-runs.js";
import { ListDataExports } from "../../core/data-exports/list-data-exports.js";
import { DataExportRepository, ExportSource, PrivateKeyReader } from "../../core/data-exports/ports.js";
import { RequestDataExportRun } from "../../core/data-exports/request-data-export-run.js";
import { RunDataExport } from "../../core/data-exports/run-data-export.js";
import { DISPATCH_DATA_EXPORTS_JOB, DISPATCH_EVERY_MS, RunDataExportJob } from "../../core/data-exports/run-job.js";
import { TestDataExportConnection } from "../../core/data-exports/test-data-export-connection.js";
import { UpdateDataExport } from "../../core/data-exports/update-data-export.js";
import { BucketWriter } from "../../core/ports/bucket-writer.js";
import { Clock } from "../../core/ports/clock.js";
import { Gzip } from "../../core/ports/gzip.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { JobQueue } from "../../core/ports/job-queue.js";
import { SecretBox } from "../../core/ports/secret-box.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { AllowPrivateDestinations, Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/** Data exports to customers' buckets: repositories, the S3 and GCS writers, use cases, the run job and its schedule. */
export const dataExportsModule = new ContainerModule((container) => {
  bindClass(container, KnexDataExportRepository, [Database]);
  container.bind<DataExportRepository>(DataExportRepository).toService(KnexDataExportRepository);
  bindClass(container, KnexExportSource, [Database]);
  container.bind<ExportSource>(ExportSource).toService(KnexExportSource);
  bindFactory(
    container,
    BucketWriter,
    (allowPrivateDestinations: boolean) => new BucketWriterByCredentials(new S3BucketWriter({ allowPrivateDestinations }), new GcsBucketWriter()),
    [AllowPrivateDestinations],
  );
  container.bind<PrivateKeyReader>(PrivateKeyReader).toConstantValue(new NodePrivateKeyReader());
  container.bind<Gzip>(Gzip).toConstantValue(new NodeGzip());

  bindFactory(
    container,
    CreateDataExport,
    (
      exports: DataExportRepository,
      buckets: BucketWriter,
      box: SecretBox,
      jobs: JobQueue,
      ids: IdGenerator,
      clock: Clock,
      allowPrivate: boolean,
      privateKeys: PrivateKeyReader,
    ) => new CreateDataExport(exports, buckets, box, jobs, ids, clock, allowPrivate, privateKeys),
    [DataExportRepository, BucketWriter, SecretBox, JobQueue, IdGenerator, Clock, AllowPrivateDestinations, PrivateKeyReader],
  );
  bindClass(container, ListDataExports, [DataExportRepository]);
  bindClass(container, GetDataExport, [DataExportRepository]);
  bindClass(container, UpdateDataExport, [DataExportRepository, BucketWriter, SecretBox, JobQueue, IdGenerator, Clock, PrivateKeyReader]);
  bindClass(container, DeleteDataExport, [DataExportRepository, Clock]);
  bindClass(container, ListDataExportRuns, [DataExportRepository]);
  bindClass(container, RequestDataExportRun, [DataExportRepository, JobQueue, IdGenerator, Clock]);
  bindClass(container, TestDataExportConnection, [DataExportRepository, BucketWriter, SecretBox, Clock]);
  bindClass(container, RunDataExport, [DataExportRepository, ExportSource, BucketWriter, Gzip, SecretBox, Clock]);
  bindClass(container, DispatchDueExports, [DataExportRepository, JobQueue, IdGenerator, Clock]);
  container.onActivation(JobHandlers, registerJobs);
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(RunDataExportJob, async ({ companyId, payload }) => {
    await container.get(RunDataExport).execute(companyId, payload.dataExportId, payload.runId);
  });
  handlers.register(DISPATCH_DATA_EXPORTS_JOB, async () => {
    await container.get(DispatchDueExports).execute();
  });
  handlers.schedule({ name: DISPATCH_DATA_EXPORTS_JOB, everyMs: DISPATCH_EVERY_MS, job: { type: DISPATCH_DATA_EXPORTS_JOB } });
  return handlers;
}
