import type { Automations } from "../ports/automations.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import { badRequest, conflict, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import { normalizeTagName } from "../tags/model.js";
import type { ContactFields } from "./contact-fields.js";
import { resolveDuplicate } from "./duplicate-strategy.js";
import { newContact } from "./new-contact.js";
import { RESERVED_ATTRIBUTE, type DuplicateStrategy, type TaggedSubscriber } from "./model.js";
import type { ContactChanges, SubscriberRepository } from "./ports.js";

/** A contact as callers describe it: only what they give is applied. */
export interface ContactInput extends ContactFields {
  /** Already validated and lower-cased (the Email codec). */
  readonly email?: string | undefined;
  /** Tag names as given; normalised here. */
  readonly tags?: readonly string[] | undefined;
  /** List IDs or names. */
  readonly lists?: readonly string[] | undefined;
}

export interface SaveOptions {
  /** Double opt-in applies: a contact created now is stored unconfirmed with it (see RequestOptIn). */
  readonly askToConfirm?: boolean;
}

export interface SavedContact {
  readonly subscriber: TaggedSubscriber;
  readonly created: boolean;
  readonly updated: boolean;
  readonly skipped: boolean;
  /** The lists (IDs) the write put the contact on (it may have been on some already). */
  readonly listIds: readonly string[];
}

export const reservedAttributeError = () => badRequest(`The custom attribute name '${RESERVED_ATTRIBUTE}' is reserved for accounts`);

/** Normalised, distinct tag names; a name with nothing usable left is refused. */
export function normalizeTags(names: readonly string[]): Result<string[]> {
  const normalised: string[] = [];
  for (const name of names) {
    const tag = normalizeTagName(name);
    if (!tag) return fail(badRequest(`Tag name '${name}' must contain a letter or a digit`));
    if (!normalised.includes(tag)) normalised.push(tag);
  }
  return ok(normalised);
}

/**
 * Creates a contact or matches an existing one (by email, then externalId) and applies the
 * duplicate strategy: `skip` leaves it as it is, `merge` applies what is given and adds tags,
 * lists and attributes, `overwrite` replaces the fields, attributes and tags. Nothing ever
 * reactivates an unsubscribed contact. The one path every contact write goes through: the API,
 * events, list membership, imports and accounts.
 */
export class SaveContact {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly automations: Automations,
  ) {}

  execute = async (companyId: string, input: ContactInput, strategy: DuplicateStrategy, options: SaveOptions = {}): Promise<Result<SavedContact>> => {
    if (input.customAttributes && Object.hasOwn(input.customAttributes, RESERVED_ATTRIBUTE)) return fail(reservedAttributeError());
    const tags = normalizeTags(input.tags ?? []);
    if (tags._tag === "Left") return tags;
    const now = this.clock.now();

    const existing = await this.findExisting(companyId, input);
    if (existing._tag === "Left") return existing;
    const contact = existing.right;
    const resolution = contact ? resolveDuplicate(strategy, contact, input, input.tags === undefined ? undefined : tags.right, now) : null;
    if (contact && !resolution) return ok({ subscriber: contact, created: false, updated: false, skipped: true, listIds: [] });

    const lists = input.lists?.length ? await this.subscribers.resolveLists(companyId, input.lists, now) : { ids: [], unknownIds: [] };
    if (lists.unknownIds.length > 0) return fail(notFound(`List not found: ${lists.unknownIds.join(", ")}`));

    if (!resolution) {
      if (!input.email) return fail(badRequest("email is required to create a subscriber"));
      const created = await this.subscribers.insert(newContact(companyId, this.ids.next("sub"), input.email, input, now), {
        addTags: tags.right,
        addLists: lists.ids,
        startOptIn: options.askToConfirm ?? false,
      });
      if (created) return ok({ subscriber: created, created: true, updated: false, skipped: false, listIds: lists.ids });
      // Someone created it meanwhile: it is an existing contact after all.
      return this.execute(companyId, input, strategy, options);
    }

    const changes: ContactChanges = resolution.replaceTags
      ? { replaceTags: resolution.tags, addLists: lists.ids }
      : { addTags: resolution.tags, addLists: lists.ids };
    const updated = await this.subscribers.update(resolution.subscriber, changes);
    // A changed field or attribute may reach attribute_change goals.
    if (contact) await this.automations.contactChanged(contact, updated, now);
    return ok({ subscriber: updated, created: false, updated: true, skipped: false, listIds: lists.ids });
  };

  private async findExisting(companyId: string, input: ContactInput): Promise<Result<TaggedSubscriber | null>> {
    const byEmail = input.email ? await this.subscribers.findByEmail(companyId, input.email) : null;
    if (!input.externalId) return ok(byEmail);
    const byExternalId = await this.subscribers.findByExternalId(companyId, input.externalId);
    if (byEmail && byExternalId && byEmail.id !== byExternalId.id) return fail(conflict("externalId is already used by another subscriber"));
    return ok(byEmail ?? byExternalId);
  }
}
