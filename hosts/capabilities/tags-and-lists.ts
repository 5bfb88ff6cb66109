import { ContainerModule } from "inversify";
import { KnexListRepository } from "../../adapters/knex/repositories/list-repository.js";
import { KnexTagRepository } from "../../adapters/knex/repositories/tag-repository.js";
import { AddListMembers } from "../../core/lists/add-list-members.js";
import { CreateList } from "../../core/lists/create-list.js";
import { DeleteList } from "../../core/lists/delete-list.js";
import { ListLists } from "../../core/lists/list-lists.js";
import { ListRepository } from "../../core/lists/ports.js";
import { RemoveListMembers } from "../../core/lists/remove-list-members.js";
import { UpdateList } from "../../core/lists/update-list.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { SubscriberRepository } from "../../core/subscribers/ports.js";
import { SaveContact } from "../../core/subscribers/save-contact.js";
import { CreateTag } from "../../core/tags/create-tag.js";
import { DeleteTag } from "../../core/tags/delete-tag.js";
import { ListTags } from "../../core/tags/list-tags.js";
import { TagRepository } from "../../core/tags/ports.js";
import { TagContact } from "../../core/tags/tag-contact.js";
import { UntagContact } from "../../core/tags/untag-contact.js";
import { UpdateTag } from "../../core/tags/update-tag.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";

/** Tags and lists: repositories, use cases, job handlers. */
export const tagsAndListsModule = new ContainerModule((container) => {
  bindClass(container, KnexTagRepository, [Database]);
  container.bind<TagRepository>(TagRepository).toService(KnexTagRepository);
  bindClass(container, ListTags, [TagRepository]);
  bindClass(container, CreateTag, [TagRepository, IdGenerator, Clock]);
  bindClass(container, UpdateTag, [TagRepository, Clock]);
  bindClass(container, DeleteTag, [TagRepository]);
  bindClass(container, TagContact, [SubscriberRepository, TagRepository, SaveContact]);
  bindClass(container, UntagContact, [SubscriberRepository, Clock]);

  bindClass(container, KnexListRepository, [Database]);
  container.bind<ListRepository>(ListRepository).toService(KnexListRepository);
  bindClass(container, ListLists, [ListRepository]);
  bindClass(container, CreateList, [ListRepository, IdGenerator, Clock]);
  bindClass(container, UpdateList, [ListRepository, Clock]);
  bindClass(container, DeleteList, [ListRepository]);
  bindClass(container, AddListMembers, [ListRepository, SaveContact, Clock]);
  bindClass(container, RemoveListMembers, [ListRepository]);
});
