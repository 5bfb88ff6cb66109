import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";
import type { SubscriberRepository } from "../subscribers/ports.js";
import { normalizeTags } from "../subscribers/save-contact.js";
import { findReferencedContact, requireReference, type ContactReference } from "./contact-reference.js";
import { toContactTagsView, type ContactTagsView } from "./view.js";

export interface UntagContactInput extends ContactReference {
  /** As given; normalised here. */
  readonly tag: string;
  /** Applied to the contact when given (null clears). */
  readonly firstName?: string | null | undefined;
  readonly lastName?: string | null | undefined;
}

export interface UntaggedContact {
  readonly subscriber: ContactTagsView;
  /** `removed` is false when the contact did not carry the tag (or the company has no such tag). */
  readonly tag: { readonly name: string; readonly removed: boolean };
}

/** POST /subscribers/tags/remove: takes a tag off an existing contact; the tag itself stays. */
export class UntagContact {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, input: UntagContactInput): Promise<Result<UntaggedContact>> => {
    const reference = requireReference(input);
    if (reference._tag === "Left") return reference;
    const names = normalizeTags([input.tag]);
    if (names._tag === "Left") return names;
    const name = names.right[0]!;

    const contact = await findReferencedContact(this.subscribers, actor.companyId, input);
    if (!contact) return fail(notFound("Subscriber not found"));
    const removed = contact.tags.includes(name);
    const renamed = input.firstName !== undefined || input.lastName !== undefined;
    if (!removed && !renamed) return ok({ subscriber: toContactTagsView(contact, false), tag: { name, removed } });

    const saved = await this.subscribers.update(
      {
        ...contact,
        firstName: input.firstName === undefined ? contact.firstName : input.firstName,
        lastName: input.lastName === undefined ? contact.lastName : input.lastName,
        updatedAt: this.clock.now(),
      },
      removed ? { removeTags: [name] } : {},
    );
    return ok({ subscriber: toContactTagsView(saved, false), tag: { name, removed } });
  };
}
