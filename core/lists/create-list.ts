import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { conflict } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { CreateListCommand } from "./commands.js";
import type { List } from "./model.js";
import type { ListRepository } from "./ports.js";
import { toListView, type ListView } from "./view.js";

/** Names are unique per company (contacts and imports refer to lists by name too). */
export const listExists = (name: string) => conflict(`A list named '${name}' already exists`);

/** POST /lists. */
export class CreateList {
  constructor(
    private readonly lists: ListRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, input: CreateListCommand): Promise<Result<ListView>> => {
    const now = this.clock.now();
    const list: List = {
      id: this.ids.next("list"),
      companyId: actor.companyId,
      name: input.name,
      description: input.description ?? null,
      isPrivate: input.isPrivate ?? false,
      allowMemberUnsubscribe: input.allowMemberUnsubscribe ?? true,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.lists.insert(list))) return fail(listExists(list.name));
    return ok(toListView({ ...list, subscriberCount: 0, activeSubscriberCount: 0 }));
  };
}
