import type { ContactFields } from "./contact-fields.js";
import { mergeContact } from "./merge-contact.js";
import type { DuplicateStrategy, Subscriber } from "./model.js";
import { overwriteContact } from "./overwrite-contact.js";

/** An existing contact as the duplicate strategy leaves it. */
export interface DuplicateResolution {
  readonly subscriber: Subscriber;
  /** Normalised tag names: added to the contact's tags, or, with `replaceTags`, its tags exactly. */
  readonly tags: readonly string[];
  readonly replaceTags: boolean;
}

/**
 * What happens when a contact being saved already exists: `skip` leaves it as it is (null),
 * `merge` applies the merge rule and adds the given tags, `overwrite` applies the overwrite
 * rule and, when tags are given, makes them the contact's tags exactly. `givenTags` is
 * undefined when the caller gave no tags at all (not even an empty list).
 * The one rule behind SaveContact and every import chunk.
 */
export function resolveDuplicate(
  strategy: DuplicateStrategy,
  existing: Subscriber,
  given: ContactFields,
  givenTags: readonly string[] | undefined,
  now: Date,
): DuplicateResolution | null {
  switch (strategy) {
    case "skip":
      return null;
    case "merge":
      return { subscriber: mergeContact(existing, given, now), tags: givenTags ?? [], replaceTags: false };
    case "overwrite":
      return { subscriber: overwriteContact(existing, given, now), tags: givenTags ?? [], replaceTags: givenTags !== undefined };
  }
}
