import { ContainerModule, type ResolutionContext } from "inversify";
import { DestinationHttpClient as DestinationHttpAdapter } from "../../adapters/http/destination-http-client.js";
import { KnexEnrollmentRepository } from "../../adapters/knex/repositories/enrollment-repository.js";
import { KnexGoalRepository } from "../../adapters/knex/repositories/goal-repository.js";
import { KnexSequenceActivityRepository } from "../../adapters/knex/repositories/sequence-activity-repository.js";
import { KnexSequenceRepository } from "../../adapters/knex/repositories/sequence-repository.js";
import { ProfileRepository } from "../../core/company/ports.js";
import { ResolveSender } from "../../core/company/resolve-sender.js";
import { EmailSendRepository } from "../../core/delivery/ports.js";
import { QueueEmailSend } from "../../core/delivery/queue-email-send.js";
import { RenderEmail } from "../../core/emails/render-email.js";
import { ContactEvents } from "../../core/events/contact-events.js";
import { ListRepository } from "../../core/lists/ports.js";
import { OptInRepository } from "../../core/opt-in/ports.js";
import { Clock } from "../../core/ports/clock.js";
import { DestinationHttpClient } from "../../core/ports/http-client.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { JobQueue } from "../../core/ports/job-queue.js";
import { SequenceActivityRepository } from "../../core/sequences/activity-ports.js";
import { AdvanceEnrollments } from "../../core/sequences/advance-enrollments.js";
import { CallWebhook } from "../../core/sequences/call-webhook.js";
import { CreateGoal } from "../../core/sequences/create-goal.js";
import { DeleteGoal } from "../../core/sequences/delete-goal.js";
import { GoalRepository } from "../../core/sequences/goal-ports.js";
import { ListGoals } from "../../core/sequences/list-goals.js";
import { RecordGoalConversions } from "../../core/sequences/record-goal-conversions.js";
import { UpdateGoal } from "../../core/sequences/update-goal.js";
import { ArchiveSequence } from "../../core/sequences/archive-sequence.js";
import { CancelEnrollments } from "../../core/sequences/cancel-enrollments.js";
import { CreateSequence } from "../../core/sequences/create-sequence.js";
import { DeleteSequence } from "../../core/sequences/delete-sequence.js";
import { DuplicateSequence } from "../../core/sequences/duplicate-sequence.js";
import { AdvanceEnrollmentsJob, SWEEP_DUE_ENROLLMENTS_JOB } from "../../core/sequences/engine-jobs.js";
import { EnrollContact } from "../../core/sequences/enroll-contact.js";
import { EnrollInSequence } from "../../core/sequences/enroll-in-sequence.js";
import { EnrollmentRepository } from "../../core/sequences/enrollment-ports.js";
import { GetSequence } from "../../core/sequences/get-sequence.js";
import { ListEnrollments } from "../../core/sequences/list-enrollments.js";
import { ListSequences } from "../../core/sequences/list-sequences.js";
import { SequenceRepository } from "../../core/sequences/ports.js";
import { RunStep } from "../../core/sequences/run-step.js";
import { SendSequenceEmail } from "../../core/sequences/send-sequence-email.js";
import { SetSequenceStatus } from "../../core/sequences/set-sequence-status.js";
import { StartSequences } from "../../core/sequences/start-sequences.js";
import { StopConditions } from "../../core/sequences/stop-conditions.js";
import { UpdateSequence } from "../../core/sequences/update-sequence.js";
import { WakeWaitingEnrollments } from "../../core/sequences/wake-waiting-enrollments.js";
import { ContactAdded } from "../../core/subscribers/contact-added.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { TagRepository } from "../../core/tags/ports.js";
import { TrackingLinks } from "../../core/tracking/tracking-links.js";
import { TrackingSettingsRepository } from "../../core/tracking-settings/ports.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { AllowPrivateDestinations, BaseUrl, Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/** Sequences: their graphs, the engine that runs enrollments through them, and the triggers that start them. */
export const sequencesModule = new ContainerModule((container) => {
  bindClass(container, KnexSequenceRepository, [Database]);
  container.bind<SequenceRepository>(SequenceRepository).toService(KnexSequenceRepository);
  bindClass(container, KnexEnrollmentRepository, [Database]);
  container.bind<EnrollmentRepository>(EnrollmentRepository).toService(KnexEnrollmentRepository);
  bindClass(container, ListSequences, [SequenceRepository]);
  bindClass(container, GetSequence, [SequenceRepository]);
  bindClass(container, CreateSequence, [SequenceRepository, IdGenerator, Clock, BaseUrl]);
  bindClass(container, UpdateSequence, [SequenceRepository, IdGenerator, Clock]);
  bindClass(container, DeleteSequence, [SequenceRepository]);
  bindClass(container, ArchiveSequence, [SequenceRepository, Clock]);
  bindClass(container, DuplicateSequence, [SequenceRepository, IdGenerator, Clock]);
  bindClass(container, SetSequenceStatus, [SequenceRepository, ResolveSender, ProfileRepository, JobQueue, Clock]);

  bindClass(container, SendSequenceEmail, [
    EmailSendRepository,
    ResolveSender,
    ProfileRepository,
    TrackingSettingsRepository,
    RenderEmail,
    TrackingLinks,
    QueueEmailSend,
  ]);
  bindClass(container, KnexSequenceActivityRepository, [Database]);
  container.bind<SequenceActivityRepository>(SequenceActivityRepository).toService(KnexSequenceActivityRepository);
  bindFactory(container, DestinationHttpClient, (allowPrivate: boolean) => new DestinationHttpAdapter({ allowPrivate }), [AllowPrivateDestinations]);
  bindClass(container, CallWebhook, [DestinationHttpClient]);
  bindClass(container, StopConditions, [SequenceActivityRepository, EnrollmentRepository, TagRepository]);
  bindClass(container, WakeWaitingEnrollments, [SequenceActivityRepository, SequenceRepository, JobQueue, Clock]);
  bindClass(container, KnexGoalRepository, [Database]);
  container.bind<GoalRepository>(GoalRepository).toService(KnexGoalRepository);
  bindClass(container, ListGoals, [SequenceRepository, GoalRepository]);
  bindClass(container, CreateGoal, [SequenceRepository, GoalRepository, IdGenerator, Clock]);
  bindClass(container, UpdateGoal, [GoalRepository, Clock]);
  bindClass(container, DeleteGoal, [GoalRepository]);
  bindClass(container, RecordGoalConversions, [GoalRepository]);
  bindClass(container, RunStep, [
    SendSequenceEmail,
    SubscriberRepository,
    TagRepository,
    ListRepository,
    EnrollmentRepository,
    SequenceActivityRepository,
    StopConditions,
    CallWebhook,
  ]);
  bindClass(container, AdvanceEnrollments, [EnrollmentRepository, SequenceRepository, SubscriberRepository, RunStep, JobQueue, Clock]);
  bindClass(container, EnrollContact, [EnrollmentRepository, OptInRepository, JobQueue, IdGenerator]);
  bindClass(container, StartSequences, [SequenceRepository, SubscriberRepository, EnrollContact, Clock]);
  bindClass(container, EnrollInSequence, [SequenceRepository, SubscriberRepository, EnrollContact, Clock]);
  bindClass(container, ListEnrollments, [SequenceRepository, EnrollmentRepository, SubscriberRepository, StopConditions]);
  bindClass(container, CancelEnrollments, [SequenceRepository, EnrollmentRepository, SubscriberRepository, Clock]);
  container.bind<ContactAdded>(ContactAdded).toDynamicValue((context) => ({
    notify: async (contact) => {
      try {
        await context.get(StartSequences).execute(contact, { trigger: "contact_added" });
        return [];
      } catch (error) {
        return [`The contact was saved, but its sequences could not be started: ${error instanceof Error ? error.message : String(error)}`];
      }
    },
  }));
  container.onActivation(JobHandlers, registerJobs);
  // Recorded custom events (and a contact's confirmation) start the sequences they trigger.
  container.onActivation<ContactEvents>(ContactEvents, (context, events) => {
    events.subscribe((event) => context.get(StartSequences).onEvent(event));
    // ...and end the waits for them (logic_wait_for_event).
    events.subscribe(async (event) => {
      await context.get(WakeWaitingEnrollments).onEvent(event);
    });
    // ...and reach the goals waiting for them.
    events.subscribe(async (event) => {
      await context.get(RecordGoalConversions).onEvent(event);
    });
    return events;
  });
});

/** Registered when the worker first asks for the job handlers. */
function registerJobs(container: ResolutionContext, handlers: JobHandlers): JobHandlers {
  handlers.register(AdvanceEnrollmentsJob, (work) => container.get(AdvanceEnrollments).runJob(work));
  handlers.register(SWEEP_DUE_ENROLLMENTS_JOB, async () => {
    await container.get(AdvanceEnrollments).sweep();
  });
  handlers.schedule({ name: SWEEP_DUE_ENROLLMENTS_JOB, everyMs: 60_000, job: { type: SWEEP_DUE_ENROLLMENTS_JOB } });
  return handlers;
}
