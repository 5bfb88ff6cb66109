import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import { LIST_NOT_FOUND } from "./model.js";
import type { ListRepository } from "./ports.js";

/** DELETE /lists/{listId}: the memberships go, the contacts stay. */
export class DeleteList {
  constructor(private readonly lists: ListRepository) {}

  execute = async (actor: Actor, listId: string): Promise<Result<{ listId: string }>> =>
    (await this.lists.delete(actor.companyId, listId)) ? ok({ listId }) : fail(LIST_NOT_FOUND);
}
