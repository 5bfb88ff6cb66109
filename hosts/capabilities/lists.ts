import { ContainerModule } from "inversify";
import { KnexWebhookPublisher } from "../../adapters/knex/knex-webhook-publisher.js";
import { KnexListRepository } from "../../adapters/knex/repositories/list-repository.js";
import { AddListMembers } from "../../core/lists/add-list-members.js";
import { RequestOptIn } from "../../core/opt-in/request-opt-in.js";
import { CreateList } from "../../core/lists/create-list.js";
import { DeleteList } from "../../core/lists/delete-list.js";
import { ListLists } from "../../core/lists/list-lists.js";
import { ListRepository } from "../../core/lists/ports.js";
import { RemoveListMembers } from "../../core/lists/remove-list-members.js";
import { UpdateList } from "../../core/lists/update-list.js";
import { Clock } from "../../core/ports/clock.js";
import { IdGenerator } from "../../core/ports/id-generator.js";
import { SaveContact } from "../../core/subscribers/save-contact.js";
import { Automations } from "../../core/ports/automations.js";
import { bindClass } from "../bind-class.js";
import { Database } from "../tokens.js";

/** Lists and their memberships: the repository and its use cases. */
export const listsModule = new ContainerModule((container) => {
  bindClass(container, KnexListRepository, [Database, IdGenerator, KnexWebhookPublisher]);
  container.bind<ListRepository>(ListRepository).toService(KnexListRepository);
  bindClass(container, ListLists, [ListRepository]);
  bindClass(container, CreateList, [ListRepository, IdGenerator, Clock]);
  bindClass(container, UpdateList, [ListRepository, Clock]);
  bindClass(container, DeleteList, [ListRepository]);
  bindClass(container, AddListMembers, [ListRepository, SaveContact, RequestOptIn, Automations, Clock]);
  bindClass(container, RemoveListMembers, [ListRepository, Clock]);
});
