import { ContainerModule } from "inversify";
import { KnexTagRepository } from "../../adapters/knex/repositories/tag-repository.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { SaveContact } from "../../core/subscribers/save-contact.js";
import { CreateTag } from "../../core/tags/create-tag.js";
import { DeleteTag } from "../../core/tags/delete-tag.js";
import { ListTags } from "../../core/tags/list-tags.js";
import { TagRepository } from "../../core/tags/ports.js";
import { TagContact } from "../../core/tags/tag-contact.js";
import { RequestOptIn } from "../../core/opt-in/request-opt-in.js";
import { UntagContact } from "../../core/tags/untag-contact.js";
import { UpdateTag } from "../../core/tags/update-tag.js";
import { Automations } from "../../core/ports/automations.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";

/** Tags: the repository and its use cases. */
export const tagsModule = new ContainerModule((container) => {
  bindClass(container, KnexTagRepository, [Database]);
  container.bind<TagRepository>(TagRepository).toService(KnexTagRepository);
  bindClass(container, ListTags, [TagRepository]);
  bindClass(container, CreateTag, [TagRepository, IdGenerator, Clock]);
  bindClass(container, UpdateTag, [TagRepository, Clock]);
  bindClass(container, DeleteTag, [TagRepository]);
  bindClass(container, TagContact, [SubscriberRepository, TagRepository, SaveContact, RequestOptIn, Automations]);
  bindClass(container, UntagContact, [SubscriberRepository, Clock]);
});
