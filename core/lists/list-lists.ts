import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { ListRepository } from "./ports.js";
import { toListView, type ListView } from "./view.js";

/** GET /lists: every list of the company with its member counts, alphabetical. */
export class ListLists {
  constructor(private readonly lists: ListRepository) {}

  execute = async (actor: Actor): Promise<Result<ListView[]>> => ok((await this.lists.list(actor.companyId)).map(toListView));
}
