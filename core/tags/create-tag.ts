import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { conflict } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { normalizeTags } from "../subscribers/save-contact.js";
import type { CreateTagCommand } from "./commands.js";
import { DEFAULT_TAG_COLOR, type Tag } from "./model.js";
import type { TagRepository } from "./ports.js";
import { toTagView, type TagView } from "./view.js";

/**
 * POST /tags: creates a tag under its normalised name. A name the company already has is a 409
 * rather than the existing tag: the caller asked for a colour too, and silently keeping another
 * one would hide that nothing was created (the official client reports "already exists").
 */
export class CreateTag {
  constructor(
    private readonly tags: TagRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, input: CreateTagCommand): Promise<Result<TagView>> => {
    const names = normalizeTags([input.name]);
    if (names._tag === "Left") return names;
    const now = this.clock.now();
    const tag: Tag = {
      id: this.ids.next("tag"),
      companyId: actor.companyId,
      name: names.right[0]!,
      color: input.color ?? DEFAULT_TAG_COLOR,
      isSystem: false,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.tags.insert(tag))) return fail(conflict("Tag already exists"));
    return ok(toTagView({ ...tag, subscriberCount: 0 }));
  };
}
