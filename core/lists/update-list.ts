import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { UpdateListCommand } from "./commands.js";
import { listExists } from "./create-list.js";
import { LIST_NOT_FOUND, type ListChanges } from "./model.js";
import type { ListRepository } from "./ports.js";
import { toListView, type ListView } from "./view.js";

/** PATCH /lists/{listId}: only the given fields change. */
export class UpdateList {
  constructor(
    private readonly lists: ListRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, listId: string, input: UpdateListCommand): Promise<Result<ListView>> => {
    const changes: ListChanges = {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.isPrivate !== undefined ? { isPrivate: input.isPrivate } : {}),
      ...(input.allowMemberUnsubscribe !== undefined ? { allowMemberUnsubscribe: input.allowMemberUnsubscribe } : {}),
    };
    if (Object.keys(changes).length === 0) return fail(badRequest("No supported fields provided: give name, description, isPrivate or allowMemberUnsubscribe"));
    const outcome = await this.lists.update(actor.companyId, listId, changes, this.clock.now());
    if (outcome === "not_found") return fail(LIST_NOT_FOUND);
    if (outcome === "duplicate") return fail(listExists(changes.name ?? ""));
    const list = await this.lists.find(actor.companyId, listId);
    return list ? ok(toListView(list)) : fail(LIST_NOT_FOUND);
  };
}
