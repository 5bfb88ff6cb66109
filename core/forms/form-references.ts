import type { ListRepository } from "../lists/ports.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { TagRepository } from "../tags/ports.js";

const distinct = (ids: readonly string[]): string[] => [...new Set(ids)];

/**
 * The lists and tags a form files its contacts under: every ID must be one of the company's
 * (spec: a 400 otherwise; another company's ID is as unknown as a made-up one).
 */
export class FormReferences {
  constructor(
    private readonly lists: ListRepository,
    private readonly tags: TagRepository,
  ) {}

  check = async (companyId: string, listIds: readonly string[], tagIds: readonly string[]): Promise<Result<{ listIds: string[]; tagIds: string[] }>> => {
    const lists = distinct(listIds);
    const tags = distinct(tagIds);
    const missingLists = (await Promise.all(lists.map(async (id) => ((await this.lists.find(companyId, id)) ? null : id)))).filter((id) => id !== null);
    if (missingLists.length > 0) return fail(badRequest(`List not found: ${missingLists.join(", ")}`));
    const missingTags = (await Promise.all(tags.map(async (id) => ((await this.tags.find(companyId, id)) ? null : id)))).filter((id) => id !== null);
    if (missingTags.length > 0) return fail(badRequest(`Tag not found: ${missingTags.join(", ")}`));
    return ok({ listIds: lists, tagIds: tags });
  };
}
