import { ContainerModule, type ResolutionContext } from "inversify";
import { KnexAudienceEnrollmentRepository } from "../../adapters/knex/repositories/audience-enrollment-repository.js";
import { KnexTestRunRepository } from "../../adapters/knex/repositories/test-run-repository.js";
import { ProfileRepository } from "../../core/company/ports.js";
import { ResolveSender } from "../../core/company/resolve-sender.js";
import { EmailSendRepository } from "../../core/delivery/ports.js";
import { QueueEmailSend } from "../../core/delivery/queue-email-send.js";
import { RenderEmail } from "../../core/emails/render-email.js";
import { ListRepository } from "../../core/lists/ports.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { JobQueue } from "../../core/ports/job-queue.js";
import { SegmentRepository } from "../../core/segments/ports.js";
import { AdvanceAudienceEnrollment, AdvanceAudienceEnrollmentJob } from "../../core/sequences/advance-audience-enrollment.js";
import { ContactConditions } from "../../core/sequences/contact-conditions.js";
import { AdvanceTestRun, AdvanceTestRunJob } from "../../core/sequences/advance-test-run.js";
import { AudienceEnrollmentRepository } from "../../core/sequences/audience-enrollment-ports.js";
import type { AudienceLookups } from "../../core/sequences/audience-selection.js";
import { CancelAudienceEnrollment } from "../../core/sequences/cancel-audience-enrollment.js";
import { EnrollContact } from "../../core/sequences/enroll-contact.js";
import { ListAudienceEnrollments } from "../../core/sequences/list-audience-enrollments.js";
import { SequenceRepository } from "../../core/sequences/ports.js";
import { PreviewSequenceNode } from "../../core/sequences/preview-sequence-node.js";
import { SendSequenceTestEmails } from "../../core/sequences/send-sequence-test-emails.js";
import { StartAudienceEnrollment } from "../../core/sequences/start-audience-enrollment.js";
import { SimulateSequence } from "../../core/sequences/simulate-sequence.js";
import { StartTestRun } from "../../core/sequences/start-test-run.js";
import { TestRunRepository } from "../../core/sequences/test-run-ports.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { TagRepository } from "../../core/tags/ports.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

const lookups = (lists: ListRepository, segments: SegmentRepository, tags: TagRepository): AudienceLookups => ({ lists, segments, tags });

/** What is run on a sequence besides its live enrollments: audience enrollments, test runs, previews and test emails of its steps. */
export const sequenceRunsModule = new ContainerModule((container) => {
  bindClass(container, KnexAudienceEnrollmentRepository, [Database]);
  container.bind<AudienceEnrollmentRepository>(AudienceEnrollmentRepository).toService(KnexAudienceEnrollmentRepository);
  bindFactory(
    container,
    StartAudienceEnrollment,
    (
      runs: AudienceEnrollmentRepository,
      sequences: SequenceRepository,
      lists: ListRepository,
      segments: SegmentRepository,
      tags: TagRepository,
      jobs: JobQueue,
      ids: IdGenerator,
      clock: Clock,
    ) => new StartAudienceEnrollment(runs, sequences, lookups(lists, segments, tags), jobs, ids, clock),
    [AudienceEnrollmentRepository, SequenceRepository, ListRepository, SegmentRepository, TagRepository, JobQueue, IdGenerator, Clock],
  );
  bindFactory(
    container,
    AdvanceAudienceEnrollment,
    (
      runs: AudienceEnrollmentRepository,
      sequences: SequenceRepository,
      subscribers: SubscriberRepository,
      lists: ListRepository,
      segments: SegmentRepository,
      tags: TagRepository,
      enroll: EnrollContact,
      jobs: JobQueue,
      clock: Clock,
    ) => new AdvanceAudienceEnrollment(runs, sequences, subscribers, lookups(lists, segments, tags), enroll, jobs, clock),
    [AudienceEnrollmentRepository, SequenceRepository, SubscriberRepository, ListRepository, SegmentRepository, TagRepository, EnrollContact, JobQueue, Clock],
  );
  bindClass(container, ListAudienceEnrollments, [AudienceEnrollmentRepository, SequenceRepository]);
  bindClass(container, CancelAudienceEnrollment, [AudienceEnrollmentRepository, Clock]);
  bindClass(container, PreviewSequenceNode, [SequenceRepository, SubscriberRepository, RenderEmail, BaseUrl]);
  bindClass(container, SendSequenceTestEmails, [
    SequenceRepository,
    SubscriberRepository,
    ProfileRepository,
    ResolveSender,
    RenderEmail,
    QueueEmailSend,
    BaseUrl,
  ]);
  bindClass(container, KnexTestRunRepository, [Database]);
  container.bind<TestRunRepository>(TestRunRepository).toService(KnexTestRunRepository);
  bindClass(container, StartTestRun, [TestRunRepository, SequenceRepository, SubscriberRepository, JobQueue, IdGenerator, Clock]);
  bindClass(container, AdvanceTestRun, [
    TestRunRepository,
    SequenceRepository,
    SubscriberRepository,
    ContactConditions,
    EmailSendRepository,
    SendSequenceTestEmails,
    JobQueue,
    Clock,
  ]);
  bindClass(container, SimulateSequence, [SequenceRepository, SubscriberRepository, ContactConditions, RenderEmail, Clock, BaseUrl]);
  container.onActivation(JobHandlers, registerJobs);
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(AdvanceAudienceEnrollmentJob, (work, job) => container.get(AdvanceAudienceEnrollment).runJob(work, job));
  handlers.register(AdvanceTestRunJob, (work, job) => container.get(AdvanceTestRun).runJob(work, job));
  return handlers;
}
