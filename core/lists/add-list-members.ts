import { triggerAllAfterWrite, type Automations } from "../ports/automations.js";
import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { RequestOptIn } from "../opt-in/request-opt-in.js";
import type { SaveContact } from "../subscribers/save-contact.js";
import type { AddListMembersCommand } from "./commands.js";
import { LIST_NOT_FOUND } from "./model.js";
import type { ListRepository } from "./ports.js";
import { toListView, type ListView } from "./view.js";

export interface AddedMembers {
  readonly list: ListView;
  /** Contacts that joined the list. */
  readonly added: number;
  /** Emails that were members already (or repeated in the request): added + skipped = emails given. */
  readonly skipped: number;
  /** Contacts created for unknown emails (they are among `added`). */
  readonly created: number;
  readonly warnings?: readonly string[];
}

/**
 * POST /lists/{listId}/subscribers: up to 500 emails. Known contacts are found in one query and
 * joined in one insert; each unknown email is created through SaveContact, the one path for new
 * contacts, and asked to confirm when double opt-in applies (`optInMode`, or the company's
 * setting). A membership the contact left stays as it is: nothing re-subscribes a contact.
 * With `enrollInSequences`, the contacts that joined start the contact_added sequences of this
 * list and of any list (and those created, the ones for any new contact).
 */
export class AddListMembers {
  constructor(
    private readonly lists: ListRepository,
    private readonly saveContact: SaveContact,
    private readonly requestOptIn: RequestOptIn,
    private readonly automations: Automations,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, listId: string, input: AddListMembersCommand): Promise<Result<AddedMembers>> => {
    const { companyId } = actor;
    const list = await this.lists.find(companyId, listId);
    if (!list) return fail(LIST_NOT_FOUND);

    const emails = [...new Set(input.emails)];
    const contacts = await this.lists.contactIdsByEmail(companyId, emails);
    let created = 0;
    const createdIds = new Set<string>();
    const warnings = new Set<string>();
    const unknown = emails.filter((email) => !contacts.has(email));
    const askToConfirm = unknown.length > 0 && (await this.requestOptIn.applies(companyId, input.optInMode));
    for (const email of unknown) {
      const saved = await this.saveContact.execute(companyId, { email }, "skip", { askToConfirm });
      if (saved._tag === "Left") return saved;
      contacts.set(email, saved.right.subscriber.id);
      if (!saved.right.created) continue;
      created += 1;
      createdIds.add(saved.right.subscriber.id);
      // Only contacts this request created are asked to confirm; known ones are only joined.
      const optIn = await this.requestOptIn.execute(saved.right.subscriber, true, askToConfirm);
      if (optIn?.warning) warnings.add(optIn.warning);
    }

    const joined = await this.lists.addMembers(companyId, listId, [...new Set(contacts.values())], this.clock.now());
    const added = joined.length;
    if (input.enrollInSequences) {
      const fresh = joined.filter((id) => createdIds.has(id));
      const known = joined.filter((id) => !createdIds.has(id));
      for (const [ids, isNew] of [
        [fresh, true],
        [known, false],
      ] as const) {
        const outcome = await triggerAllAfterWrite(this.automations, companyId, ids, [{ trigger: "contact_added", created: isNew, listIds: [listId] }]);
        for (const warning of outcome.warnings) warnings.add(warning);
      }
    }
    const counted = (await this.lists.find(companyId, listId)) ?? list;
    return ok({
      list: toListView(counted),
      added,
      skipped: input.emails.length - added,
      created,
      ...(warnings.size > 0 ? { warnings: [...warnings] } : {}),
    });
  };
}
