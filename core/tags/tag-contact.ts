import type { Actor } from "../shared/actor.js";
import { badRequest } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { Attributes } from "../subscribers/model.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { normalizeTags, type SaveContact } from "../subscribers/save-contact.js";
import { findReferencedContact, requireReference, type ContactReference } from "./contact-reference.js";
import type { TagRepository } from "./ports.js";
import { toContactTagsView, type ContactTagsView } from "./view.js";
import { MAX_TAGS_PER_CONTACT_CALL } from "./model.js";
import type { RequestOptIn } from "../opt-in/request-opt-in.js";
import { newContactOccurrences, triggerAllAfterWrite, type Automations, type AutomationOccurrence } from "../ports/automations.js";

export { MAX_TAGS_PER_CONTACT_CALL };

export interface TagContactInput extends ContactReference {
  /** Names as given; normalised here. */
  readonly tags: readonly string[];
  readonly customAttributes?: Attributes | undefined;
}

/** One requested tag after the call. */
export interface AppliedTag {
  readonly id: string;
  /** Normalised. */
  readonly name: string;
  /** The company had no tag of that name before this call. */
  readonly created: boolean;
  /** The contact did not carry it before this call. */
  readonly added: boolean;
}

export interface TaggedContact {
  readonly subscriber: ContactTagsView;
  /** In the order requested, without repeats. */
  readonly tags: readonly AppliedTag[];
}

/**
 * POST /subscribers/tags and /subscribers/tags/bulk: puts tags on one contact, creating the
 * contact (an email is needed) and the tags when missing. The contact goes through SaveContact
 * with `merge`, so given custom attributes are merged into an existing contact. A contact this
 * call creates is asked to confirm when the company has double opt-in on, like one from
 * POST /subscribers: stored unconfirmed with the contact, then emailed. The tags the contact did
 * not carry start their tag_added sequences (and a new contact its contact_added ones).
 */
export class TagContact {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly tags: TagRepository,
    private readonly saveContact: SaveContact,
    private readonly requestOptIn: RequestOptIn,
    private readonly automations: Automations,
  ) {}

  execute = async (actor: Actor, input: TagContactInput): Promise<Result<TaggedContact>> => {
    const reference = requireReference(input);
    if (reference._tag === "Left") return reference;
    if (input.tags.length === 0) return fail(badRequest("Provide at least one tag in tags"));
    if (input.tags.length > MAX_TAGS_PER_CONTACT_CALL) {
      return fail(badRequest(`At most ${MAX_TAGS_PER_CONTACT_CALL} tags can be added per request (got ${input.tags.length})`));
    }
    const names = normalizeTags(input.tags);
    if (names._tag === "Left") return names;
    const { companyId } = actor;

    // What existed before, to tell which tags are new to the company and to the contact.
    const existingTags = new Set((await this.tags.findByNames(companyId, names.right)).map((tag) => tag.name));
    const before = await findReferencedContact(this.subscribers, companyId, input);

    // Only a contact this call may create can need asking: a known one skips the settings read.
    const askToConfirm = !before && (await this.requestOptIn.applies(companyId, undefined));
    const saved = await this.saveContact.execute(
      companyId,
      { email: input.email, externalId: input.externalId, customAttributes: input.customAttributes, tags: names.right },
      "merge",
      { askToConfirm },
    );
    if (saved._tag === "Left") return saved;
    const { subscriber, created } = saved.right;
    if (created) await this.requestOptIn.execute(subscriber, true, askToConfirm);
    const carried = new Set(before?.id === subscriber.id ? before.tags : []);

    const ids = new Map((await this.tags.findByNames(companyId, names.right)).map((tag) => [tag.name, tag.id]));
    const tags = names.right.map((name) => ({ id: ids.get(name) ?? "", name, created: !existingTags.has(name), added: !carried.has(name) }));
    const added = tags.filter((tag) => tag.added).map((tag) => tag.name);
    const occurrences: AutomationOccurrence[] = created
      ? newContactOccurrences([], added)
      : added.length > 0
        ? [{ trigger: "tag_added", tagNames: added }]
        : [];
    await triggerAllAfterWrite(this.automations, companyId, [subscriber.id], occurrences);
    return ok({ subscriber: toContactTagsView(subscriber, created), tags });
  };
}
