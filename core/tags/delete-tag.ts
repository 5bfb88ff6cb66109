import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { TAG_NOT_FOUND } from "./model.js";
import type { TagRepository } from "./ports.js";

/**
 * DELETE /tags/{tagId}: deletes the tag and takes it off every contact. System tags are refused.
 * Compat also refuses tags used by sequences; sequences do not exist yet, so that check is to be
 * added with them.
 */
export class DeleteTag {
  constructor(private readonly tags: TagRepository) {}

  execute = async (actor: Actor, tagId: string): Promise<Result<{ tagId: string }>> => {
    const tag = await this.tags.find(actor.companyId, tagId);
    if (!tag) return fail(TAG_NOT_FOUND);
    if (tag.isSystem) return fail(badRequest("System tags cannot be deleted"));
    if (!(await this.tags.delete(actor.companyId, tagId))) return fail(TAG_NOT_FOUND);
    return ok({ tagId });
  };
}
