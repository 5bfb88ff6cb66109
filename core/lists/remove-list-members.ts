import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { RemoveListMembersCommand } from "./commands.js";
import { LIST_NOT_FOUND } from "./model.js";
import type { ListRepository } from "./ports.js";
import { toListView, type ListView } from "./view.js";

export interface RemovedMembers {
  readonly list: ListView;
  /** Memberships removed. */
  readonly removed: number;
  /** Contacts found that were not members. */
  readonly skipped: number;
  /** Emails (lower-cased) that name no contact of the company. */
  readonly notFound: readonly string[];
}

/** POST /lists/{listId}/subscribers/remove: up to 500 emails, in two queries; the contacts stay. */
export class RemoveListMembers {
  constructor(
    private readonly lists: ListRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, listId: string, input: RemoveListMembersCommand): Promise<Result<RemovedMembers>> => {
    const { companyId } = actor;
    const list = await this.lists.find(companyId, listId);
    if (!list) return fail(LIST_NOT_FOUND);

    const emails = [...new Set(input.emails)];
    const contacts = await this.lists.contactIdsByEmail(companyId, emails);
    const removed = await this.lists.removeMembers(companyId, listId, [...contacts.values()], this.clock.now());
    const counted = (await this.lists.find(companyId, listId)) ?? list;
    return ok({
      list: toListView(counted),
      removed,
      skipped: contacts.size - removed,
      notFound: emails.filter((email) => !contacts.has(email)),
    });
  };
}
