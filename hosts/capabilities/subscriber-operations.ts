import { KnexWebhookPublisher } from "../../adapters/knex/knex-webhook-publisher.js";
import { ContainerModule, type ResolutionContext } from "inversify";
import { KnexBulkTagStore, KnexSubscriberOperationRepository } from "../../adapters/knex/repositories/subscriber-operation-repository.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { JobQueue } from "../../core/ports/job-queue.js";
import { SegmentRepository } from "../../core/segments/ports.js";
import { AdvanceOperation, AdvanceOperationJob } from "../../core/subscriber-operations/advance-operation.js";
import { BulkTag } from "../../core/subscriber-operations/bulk-tag.js";
import { CancelOperation } from "../../core/subscriber-operations/cancel-operation.js";
import { GetOperation } from "../../core/subscriber-operations/get-operation.js";
import { ListOperations } from "../../core/subscriber-operations/list-operations.js";
import { BulkTagStore, SubscriberOperationRepository } from "../../core/subscriber-operations/ports.js";
import { StartOperation } from "../../core/subscriber-operations/start-operation.js";
import { Automations } from "../../core/ports/automations.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";
import { segmentDocsUrl } from "./segments.js";

const SWEEP_EXPIRED_OPERATIONS = "subscriber_operations.sweep_expired";

/** Bulk tags and asynchronous subscriber operations: repositories, use cases, job handlers. */
export const subscriberOperationsModule = new ContainerModule((container) => {
  bindClass(container, KnexSubscriberOperationRepository, [Database, IdGenerator, KnexWebhookPublisher]);
  container.bind<SubscriberOperationRepository>(SubscriberOperationRepository).toService(KnexSubscriberOperationRepository);
  bindClass(container, KnexBulkTagStore, [Database, IdGenerator, KnexWebhookPublisher]);
  container.bind<BulkTagStore>(BulkTagStore).toService(KnexBulkTagStore);

  bindClass(container, BulkTag, [BulkTagStore, Automations, Clock]);
  bindFactory(
    container,
    StartOperation,
    (operations: SubscriberOperationRepository, segments: SegmentRepository, jobs: JobQueue, ids: IdGenerator, clock: Clock, baseUrl: string) =>
      new StartOperation(operations, segments, jobs, ids, clock, segmentDocsUrl(baseUrl)),
    [SubscriberOperationRepository, SegmentRepository, JobQueue, IdGenerator, Clock, BaseUrl],
  );
  bindClass(container, GetOperation, [SubscriberOperationRepository]);
  bindClass(container, ListOperations, [SubscriberOperationRepository]);
  bindClass(container, CancelOperation, [SubscriberOperationRepository, Clock]);
  bindClass(container, AdvanceOperation, [SubscriberOperationRepository, JobQueue, Clock]);
  container.onActivation(JobHandlers, registerJobs);
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(AdvanceOperationJob, (work, job) => container.get(AdvanceOperation).runJob(work, job));
  // Records of operations that ended more than 30 days ago (expiresAt) are removed, once a day.
  handlers.register(SWEEP_EXPIRED_OPERATIONS, async () => {
    await container.get<SubscriberOperationRepository>(SubscriberOperationRepository).deleteExpired(container.get<Clock>(Clock).now());
  });
  handlers.schedule({ name: SWEEP_EXPIRED_OPERATIONS, everyMs: 24 * 3_600_000, job: { type: SWEEP_EXPIRED_OPERATIONS } });
  return handlers;
}
