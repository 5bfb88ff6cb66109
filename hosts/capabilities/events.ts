import { ContainerModule } from "inversify";
import { KnexCustomEventRepository } from "../../adapters/knex/repositories/custom-event-repository.js";
import { ContactEvents } from "../../core/events/contact-events.js";
import { DescribeEventSchemas } from "../../core/events/describe-event-schemas.js";
import { GetEventSample } from "../../core/events/get-event-sample.js";
import { ImportEvents } from "../../core/events/import-events.js";
import { CustomEventRepository } from "../../core/events/ports.js";
import { RecordCustomEvent } from "../../core/events/record-custom-event.js";
import { ResolveEventContact } from "../../core/events/resolve-event-contact.js";
import { TrackEvents } from "../../core/events/track-events.js";
import { RequestOptIn } from "../../core/opt-in/request-opt-in.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { SaveContact } from "../../core/subscribers/save-contact.js";
import { Automations } from "../../core/ports/automations.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";

/** Custom events and their definitions: repositories, use cases, job handlers. */
export const eventsModule = new ContainerModule((container) => {
  bindClass(container, KnexCustomEventRepository, [Database, IdGenerator]);
  container.bind<CustomEventRepository>(CustomEventRepository).toService(KnexCustomEventRepository);
  bindClass(container, RecordCustomEvent, [CustomEventRepository, ContactEvents, IdGenerator, Clock]);
  bindClass(container, ResolveEventContact, [CustomEventRepository, SaveContact, RequestOptIn, Automations]);
  bindClass(container, TrackEvents, [ResolveEventContact, RecordCustomEvent, Clock]);
  bindClass(container, ImportEvents, [ResolveEventContact, RecordCustomEvent, Clock]);
  bindClass(container, DescribeEventSchemas, [CustomEventRepository]);
  bindClass(container, GetEventSample, [CustomEventRepository]);
});
