import type { Subscriber, SubscriberStatus, TaggedSubscriber } from "./model.js";
import { token } from "../shared/token.js";
import type { ContactEnrollmentView } from "./view.js";

/** Tag and list changes applied together with a contact's fields, in one transaction. */
export interface ContactChanges {
  /** Normalised tag names to add; tags missing in the company are created. */
  readonly addTags?: readonly string[];
  /** Normalised tag names the contact should have exactly (replaces the set). */
  readonly replaceTags?: readonly string[];
  readonly removeTags?: readonly string[];
  /** List IDs (already resolved with `resolveLists`) the contact joins. */
  readonly addLists?: readonly string[];
  /** A new active contact starts unconfirmed (double opt-in), in the transaction that inserts it. */
  readonly startOptIn?: boolean;
}

export interface ResolvedLists {
  readonly ids: readonly string[];
  /** References that look like list IDs but name no list of the company. */
  readonly unknownIds: readonly string[];
}

/** Contacts of a company, with their tags and list memberships. Every method names the company. */
export interface SubscriberRepository {
  findById(companyId: string, id: string): Promise<TaggedSubscriber | null>;
  /** Those of the contacts that exist, in no particular order, in two queries whatever the count. */
  findByIds(companyId: string, ids: readonly string[]): Promise<TaggedSubscriber[]>;
  findByEmail(companyId: string, email: string): Promise<TaggedSubscriber | null>;
  findByExternalId(companyId: string, externalId: string): Promise<TaggedSubscriber | null>;
  /** Inserts the contact; null when its email or externalId was taken meanwhile (a concurrent create). */
  insert(subscriber: Subscriber, changes: ContactChanges): Promise<TaggedSubscriber | null>;
  /** Saves every field of the contact and applies the changes. */
  update(subscriber: Subscriber, changes: ContactChanges): Promise<TaggedSubscriber>;
  /**
   * Moves the contact with this address from status `from` to `to` in one statement (a bounce
   * marking or lifting it races no other update); false when no contact of the address is in `from`.
   */
  changeStatus(companyId: string, email: string, from: SubscriberStatus, to: SubscriberStatus, at: Date): Promise<boolean>;
  /** Hard delete (notes, memberships and events go with it). False when there was nothing to delete. */
  delete(companyId: string, id: string): Promise<boolean>;
  /** List IDs for references given as IDs or names; lists named but missing are created. */
  resolveLists(companyId: string, references: readonly string[], now: Date): Promise<ResolvedLists>;
}
export const SubscriberRepository = token<SubscriberRepository>("lifecycle.SubscriberRepository");

/** The contact's runs through sequences, as its detail shows them (the sequences context answers). */
export interface ContactEnrollments {
  ofContact(companyId: string, subscriberId: string): Promise<ContactEnrollmentView[]>;
}
export const ContactEnrollments = token<ContactEnrollments>("lifecycle.ContactEnrollments");
