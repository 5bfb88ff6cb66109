import type { Container } from "inversify";
import { InProcessContactEvents } from "../../adapters/memory/in-process-contact-events.js";
import { KnexSubscriberRepository } from "../../adapters/knex/repositories/subscriber-repository.js";
import { ContactEvents } from "../../core/events/contact-events.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { SaveContact } from "../../core/subscribers/save-contact.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../container.js";
import type { JobHandlers } from "../worker/job-handlers.js";

/** Subscribers, their tags and lists, and notes: repositories, use cases, job handlers. */
export function bindSubscribers(container: Container, handlers: JobHandlers): void {
  void handlers;
  bindClass(container, KnexSubscriberRepository, [Database, IdGenerator]);
  container.bind<SubscriberRepository>(SubscriberRepository).toService(KnexSubscriberRepository);
  bindClass(container, SaveContact, [SubscriberRepository, IdGenerator, Clock]);
  container.bind<ContactEvents>(ContactEvents).toConstantValue(new InProcessContactEvents());
}
