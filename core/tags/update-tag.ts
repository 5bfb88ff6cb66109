import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { UpdateTagCommand } from "./commands.js";
import { TAG_NOT_FOUND } from "./model.js";
import type { TagRepository } from "./ports.js";
import { toTagView, type TagView } from "./view.js";

/** PATCH /tags/{tagId}: changes the colour, the only editable field; system tags stay as they are. */
export class UpdateTag {
  constructor(
    private readonly tags: TagRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, tagId: string, input: UpdateTagCommand): Promise<Result<TagView>> => {
    if (input.color === undefined) return fail(badRequest("Only color can be changed: provide color"));
    const tag = await this.tags.find(actor.companyId, tagId);
    if (!tag) return fail(TAG_NOT_FOUND);
    if (tag.isSystem) return fail(badRequest("System tags cannot be changed"));
    const now = this.clock.now();
    if (!(await this.tags.updateColor(actor.companyId, tagId, input.color, now))) return fail(TAG_NOT_FOUND);
    return ok(toTagView({ ...tag, color: input.color, updatedAt: now }));
  };
}
