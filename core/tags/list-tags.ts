import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { TagRepository } from "./ports.js";
import { toTagView, type TagView } from "./view.js";

/** GET /tags: every tag of the company with its usage count, alphabetical. */
export class ListTags {
  constructor(private readonly tags: TagRepository) {}

  execute = async (actor: Actor): Promise<Result<TagView[]>> => ok((await this.tags.list(actor.companyId)).map(toTagView));
}
