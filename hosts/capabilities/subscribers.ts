import { KnexWebhookPublisher } from "../../adapters/knex/knex-webhook-publisher.js";
import { ContainerModule, type ContainerModuleLoadOptions } from "inversify";
import { InProcessContactEvents } from "../../adapters/memory/in-process-contact-events.js";
import { KnexSubscriberRepository } from "../../adapters/knex/repositories/subscriber-repository.js";
import { ContactEvents } from "../../core/events/contact-events.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { ContactEnrollments, SubscriberRepository } from "../../core/subscribers/ports.js";
import { SaveContact } from "../../core/subscribers/save-contact.js";
import { KnexNoteRepository } from "../../adapters/knex/repositories/note-repository.js";
import { KnexSubscriberQueries } from "../../adapters/knex/repositories/subscriber-queries.js";
import { KnexContactEngagementQueries } from "../../adapters/knex/repositories/contact-engagement-queries.js";
import { ContactEngagementQueries } from "../../core/subscribers/engagement.js";
import { AddNote } from "../../core/notes/add-note.js";
import { DeleteNote } from "../../core/notes/delete-note.js";
import { ListNotes } from "../../core/notes/list-notes.js";
import { NoteRepository } from "../../core/notes/ports.js";
import { SegmentRepository } from "../../core/segments/ports.js";
import { Automations } from "../../core/ports/automations.js";
import { CreateSubscriber } from "../../core/subscribers/create-subscriber.js";
import { RequestOptIn } from "../../core/opt-in/request-opt-in.js";
import { DeleteSubscriber } from "../../core/subscribers/delete-subscriber.js";
import { GetSubscriber } from "../../core/subscribers/get-subscriber.js";
import { ListSubscribers } from "../../core/subscribers/list-subscribers.js";
import { SubscriberQueries } from "../../core/subscribers/queries.js";
import { UpdateSubscriber } from "../../core/subscribers/update-subscriber.js";
import { bindClass, bindFactory } from "../bind-class.js";
import { BaseUrl, Database } from "../tokens.js";
import { segmentDocsUrl } from "./segments.js";

/** Subscribers, their tags and lists, and notes: repositories, use cases, job handlers. */
export const subscribersModule = new ContainerModule((container) => {
  bindClass(container, KnexSubscriberRepository, [Database, IdGenerator, KnexWebhookPublisher]);
  container.bind<SubscriberRepository>(SubscriberRepository).toService(KnexSubscriberRepository);
  bindClass(container, SaveContact, [SubscriberRepository, IdGenerator, Clock, Automations]);
  container.bind<ContactEvents>(ContactEvents).toConstantValue(new InProcessContactEvents());

  bindSubscriberRoutes(container);
});

/** The subscriber and note routes' use cases. */
function bindSubscriberRoutes(container: ContainerModuleLoadOptions): void {
  bindClass(container, KnexSubscriberQueries, [Database, IdGenerator, KnexWebhookPublisher]);
  container.bind<SubscriberQueries>(SubscriberQueries).toService(KnexSubscriberQueries);
  bindClass(container, KnexNoteRepository, [Database]);
  container.bind<NoteRepository>(NoteRepository).toService(KnexNoteRepository);

  bindClass(container, CreateSubscriber, [SaveContact, RequestOptIn, Automations]);
  bindClass(container, KnexContactEngagementQueries, [Database]);
  container.bind<ContactEngagementQueries>(ContactEngagementQueries).toService(KnexContactEngagementQueries);
  bindClass(container, GetSubscriber, [SubscriberRepository, SubscriberQueries, ContactEngagementQueries, NoteRepository, ContactEnrollments]);
  bindClass(container, UpdateSubscriber, [SubscriberRepository, SubscriberQueries, Automations, Clock]);
  bindClass(container, DeleteSubscriber, [SubscriberRepository]);
  bindFactory(
    container,
    ListSubscribers,
    (queries: SubscriberQueries, segments: SegmentRepository, clock: Clock, baseUrl: string) =>
      new ListSubscribers(queries, segments, clock, segmentDocsUrl(baseUrl)),
    [SubscriberQueries, SegmentRepository, Clock, BaseUrl],
  );

  bindClass(container, AddNote, [SubscriberRepository, NoteRepository, IdGenerator, Clock]);
  bindClass(container, ListNotes, [SubscriberRepository, NoteRepository]);
  bindClass(container, DeleteNote, [NoteRepository]);
}
