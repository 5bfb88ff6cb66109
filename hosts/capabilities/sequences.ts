import { KnexWebhookPublisher } from "../../adapters/knex/knex-webhook-publisher.js";
import { ContainerModule, type ResolutionContext } from "inversify";
import { DestinationHttpClient as DestinationHttpAdapter } from "../../adapters/http/destination-http-client.js";
import { KnexEnrollmentRepository } from "../../adapters/knex/repositories/enrollment-repository.js";
import { KnexGoalRepository } from "../../adapters/knex/repositories/goal-repository.js";
import { KnexEventInterestRepository } from "../../adapters/knex/repositories/event-interest-repository.js";
import { KnexSequenceActivityRepository } from "../../adapters/knex/repositories/sequence-activity-repository.js";
import { KnexSegmentWatches } from "../../adapters/knex/repositories/segment-watch-store.js";
import { KnexSequenceRepository } from "../../adapters/knex/repositories/sequence-repository.js";
import { KnexTriggerStore } from "../../adapters/knex/repositories/trigger-store.js";
import { ProfileRepository } from "../../core/company/ports.js";
import { ResolveSender } from "../../core/company/resolve-sender.js";
import { EmailSendRepository } from "../../core/delivery/ports.js";
import { QueueEmailSend } from "../../core/delivery/queue-email-send.js";
import { RenderEmail } from "../../core/emails/render-email.js";
import { ContactEvents } from "../../core/events/contact-events.js";
import { ListRepository } from "../../core/lists/ports.js";
import { OptInRepository } from "../../core/opt-in/ports.js";
import { Automations } from "../../core/ports/automations.js";
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
import { EventInterestRepository, sequenceEventListeners } from "../../core/sequences/event-interest.js";
import { RecordGoalConversions } from "../../core/sequences/record-goal-conversions.js";
import { RecordAttributeGoalsJob } from "../../core/sequences/attribute-goal-jobs.js";
import { UpdateGoal } from "../../core/sequences/update-goal.js";
import { ArchiveSequence } from "../../core/sequences/archive-sequence.js";
import { CancelEnrollments } from "../../core/sequences/cancel-enrollments.js";
import { CreateSequence } from "../../core/sequences/create-sequence.js";
import { DeleteSequence } from "../../core/sequences/delete-sequence.js";
import { DuplicateSequence } from "../../core/sequences/duplicate-sequence.js";
import { AdvanceEnrollmentsJob, SWEEP_DUE_ENROLLMENTS_JOB } from "../../core/sequences/engine-jobs.js";
import { EnrollContact } from "../../core/sequences/enroll-contact.js";
import { EnrollInactiveContacts, EnrollInactiveJob, INACTIVITY_SWEEP_MS, SWEEP_INACTIVITY_JOB } from "../../core/sequences/enroll-inactive-contacts.js";
import { EnrollInSequence } from "../../core/sequences/enroll-in-sequence.js";
import { EnrollmentRepository } from "../../core/sequences/enrollment-ports.js";
import { SegmentEvaluator, SegmentRepository } from "../../core/segments/ports.js";
import { EvaluateSegmentEntries, EvaluateSegmentJob, SEGMENT_SWEEP_MS, SWEEP_SEGMENT_ENTRIES_JOB } from "../../core/sequences/evaluate-segment-entries.js";
import { ExitSequences } from "../../core/sequences/exit-sequences.js";
import { GetSequence } from "../../core/sequences/get-sequence.js";
import { LeaveSequenceFromEmail } from "../../core/sequences/leave-sequence-from-email.js";
import { ListEnrollments } from "../../core/sequences/list-enrollments.js";
import { ListSequences } from "../../core/sequences/list-sequences.js";
import { MoveEnrollments } from "../../core/sequences/move-enrollments.js";
import { SequenceRepository } from "../../core/sequences/ports.js";
import { RunStep } from "../../core/sequences/run-step.js";
import { SendSequenceEmail } from "../../core/sequences/send-sequence-email.js";
import { SetSequenceStatus } from "../../core/sequences/set-sequence-status.js";
import { StartSequences } from "../../core/sequences/start-sequences.js";
import { StopConditions } from "../../core/sequences/stop-conditions.js";
import { RealignSendingWindow, RealignSendingWindowJob } from "../../core/sequences/realign-sending-window.js";
import { RealignmentRepository } from "../../core/sequences/realignment-ports.js";
import { KnexRealignmentRepository } from "../../adapters/knex/repositories/realignment-repository.js";
import { ContactConditions } from "../../core/sequences/contact-conditions.js";
import { SegmentMembership } from "../../core/segments/segment-membership.js";
import { ContactEnrollmentViews } from "../../core/sequences/contact-enrollment-views.js";
import { ContactEnrollments } from "../../core/subscribers/ports.js";
import { StartSequencesJob } from "../../core/sequences/trigger-jobs.js";
import { SegmentWatches, TriggerStore } from "../../core/sequences/trigger-ports.js";
import { UpdateSequence } from "../../core/sequences/update-sequence.js";
import { WakeWaitingEnrollments } from "../../core/sequences/wake-waiting-enrollments.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { TagRepository } from "../../core/tags/ports.js";
import { TrackingLinks } from "../../core/tracking/tracking-links.js";
import { EngagementRepository } from "../../core/tracking/ports.js";
import { TrackingTokens } from "../../core/tracking/tracking-tokens.js";
import { TenancyRepository } from "../../core/tenancy/ports.js";
import { TrackingSettingsRepository } from "../../core/tracking-settings/ports.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { AllowPrivateDestinations, BaseUrl, Database } from "../tokens.js";
import { JobHandlers } from "../worker/job-handlers.js";

/** Sequences: their graphs, the engine that runs enrollments through them, and the triggers that start them. */
export const sequencesModule = new ContainerModule((container) => {
  bindClass(container, KnexSequenceRepository, [Database]);
  container.bind<SequenceRepository>(SequenceRepository).toService(KnexSequenceRepository);
  bindClass(container, KnexEnrollmentRepository, [Database, KnexWebhookPublisher]);
  container.bind<EnrollmentRepository>(EnrollmentRepository).toService(KnexEnrollmentRepository);
  bindClass(container, KnexTriggerStore, [Database]);
  container.bind<TriggerStore>(TriggerStore).toService(KnexTriggerStore);
  bindClass(container, KnexSegmentWatches, [Database]);
  container.bind<SegmentWatches>(SegmentWatches).toService(KnexSegmentWatches);
  bindClass(container, ListSequences, [SequenceRepository]);
  bindClass(container, GetSequence, [SequenceRepository]);
  bindClass(container, CreateSequence, [SequenceRepository, IdGenerator, Clock, BaseUrl]);
  bindClass(container, UpdateSequence, [SequenceRepository, IdGenerator, JobQueue, Clock]);
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
  bindClass(container, KnexEventInterestRepository, [Database]);
  container.bind<EventInterestRepository>(EventInterestRepository).toService(KnexEventInterestRepository);
  container.bind<SequenceActivityRepository>(SequenceActivityRepository).toService(KnexSequenceActivityRepository);
  bindFactory(container, DestinationHttpClient, (allowPrivate: boolean) => new DestinationHttpAdapter({ allowPrivate }), [AllowPrivateDestinations]);
  bindClass(container, CallWebhook, [DestinationHttpClient]);
  bindClass(container, SegmentMembership, [SegmentRepository, SegmentEvaluator, Clock]);
  // The contact detail's sequenceEnrollments, answered for the subscribers context.
  bindClass(container, ContactEnrollmentViews, [EnrollmentRepository, SequenceRepository]);
  container.bind<ContactEnrollments>(ContactEnrollments).toService(ContactEnrollmentViews);
  bindClass(container, StopConditions, [SequenceActivityRepository, EnrollmentRepository, TagRepository, SegmentMembership]);
  bindClass(container, ContactConditions, [TagRepository, EnrollmentRepository, SequenceActivityRepository, SegmentMembership]);
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
    ContactConditions,
    RecordGoalConversions,
  ]);
  bindClass(container, AdvanceEnrollments, [EnrollmentRepository, SequenceRepository, SubscriberRepository, RunStep, JobQueue, Clock]);
  bindClass(container, EnrollContact, [EnrollmentRepository, OptInRepository, JobQueue, IdGenerator]);
  bindClass(container, StartSequences, [SequenceRepository, SubscriberRepository, EnrollContact, TriggerStore, Clock]);
  bindClass(container, ExitSequences, [TriggerStore, SubscriberRepository, Clock]);
  bindClass(container, EnrollInactiveContacts, [SequenceRepository, TriggerStore, SubscriberRepository, EnrollContact, JobQueue, Clock]);
  bindClass(container, EvaluateSegmentEntries, [
    SequenceRepository,
    SegmentRepository,
    SegmentWatches,
    TriggerStore,
    SubscriberRepository,
    EnrollmentRepository,
    EnrollContact,
    JobQueue,
    Clock,
  ]);
  bindClass(container, EnrollInSequence, [SequenceRepository, SubscriberRepository, EnrollContact, Clock]);
  bindClass(container, ListEnrollments, [SequenceRepository, EnrollmentRepository, SubscriberRepository, StopConditions]);
  bindClass(container, CancelEnrollments, [SequenceRepository, EnrollmentRepository, SubscriberRepository, Clock]);
  bindClass(container, MoveEnrollments, [SequenceRepository, EnrollmentRepository, SubscriberRepository, JobQueue, Clock]);
  bindClass(container, KnexRealignmentRepository, [Database, IdGenerator, Clock]);
  container.bind<RealignmentRepository>(RealignmentRepository).toService(KnexRealignmentRepository);
  bindClass(container, RealignSendingWindow, [SequenceRepository, EnrollmentRepository, RealignmentRepository, JobQueue, IdGenerator, Clock]);
  bindClass(container, LeaveSequenceFromEmail, [TrackingTokens, EngagementRepository, TenancyRepository, SequenceRepository, EnrollmentRepository, Clock]);
  // The one entry point other contexts call; resolved lazily, so their use cases need not build the engine.
  container.bind<Automations>(Automations).toDynamicValue((context) => ({
    trigger: (companyId, subscriberIds, occurrence) => context.get(StartSequences).trigger(companyId, subscriberIds, occurrence),
    exit: (companyId, contact, reason) => context.get(ExitSequences).execute(companyId, contact, reason),
    contactChanged: async (before, after, at) => {
      await context.get(RecordGoalConversions).onContactChanged(before, after, at);
    },
    watchedFields: (companyId) => context.get(RecordGoalConversions).watchedFields(companyId),
  }));
  container.onActivation(JobHandlers, registerJobs);
  // Recorded custom events (and a contact's confirmation) start the sequences they trigger.
  container.onActivation<ContactEvents>(ContactEvents, (context, events) => {
    const listeners = sequenceEventListeners(context.get(EventInterestRepository), {
      start: (event) => context.get(StartSequences).onEvent(event),
      wake: (event) => context.get(WakeWaitingEnrollments).onEvent(event),
      convert: (event) => context.get(RecordGoalConversions).onEvent(event),
    });
    for (const listener of listeners) events.subscribe(listener);
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
  handlers.register(RealignSendingWindowJob, (work, job) => container.get(RealignSendingWindow).runJob(work, job));
  handlers.register(RecordAttributeGoalsJob, async (work) => {
    await container.get(RecordGoalConversions).runJob(work);
  });
  handlers.register(StartSequencesJob, async ({ companyId, payload }) => {
    await container.get(StartSequences).trigger(companyId, payload.subscriberIds, payload.occurrence);
  });
  handlers.register(EnrollInactiveJob, async (work) => {
    await container.get(EnrollInactiveContacts).runJob(work);
  });
  handlers.register(SWEEP_INACTIVITY_JOB, () => container.get(EnrollInactiveContacts).sweep());
  handlers.schedule({ name: SWEEP_INACTIVITY_JOB, everyMs: INACTIVITY_SWEEP_MS, job: { type: SWEEP_INACTIVITY_JOB } });
  handlers.register(EvaluateSegmentJob, (work) => container.get(EvaluateSegmentEntries).runJob(work));
  handlers.register(SWEEP_SEGMENT_ENTRIES_JOB, () => container.get(EvaluateSegmentEntries).sweep());
  handlers.schedule({ name: SWEEP_SEGMENT_ENTRIES_JOB, everyMs: SEGMENT_SWEEP_MS, job: { type: SWEEP_SEGMENT_ENTRIES_JOB } });
  return handlers;
}
