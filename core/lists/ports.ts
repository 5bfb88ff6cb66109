import type { List, ListChanges, ListWithCounts } from "./model.js";
import { token } from "../shared/token.js";

/** A company's lists and their memberships. Every method names the company. */
export interface ListRepository {
  /** Alphabetical by name, with member counts. */
  list(companyId: string): Promise<ListWithCounts[]>;
  find(companyId: string, listId: string): Promise<ListWithCounts | null>;
  /** False when the company already has a list of that name. */
  insert(list: List): Promise<boolean>;
  /** `duplicate` when the new name is taken by another list of the company. */
  update(companyId: string, listId: string, changes: ListChanges, at: Date): Promise<"updated" | "not_found" | "duplicate">;
  /** Deletes the list and its memberships; the contacts stay. False when the company has no such list. */
  delete(companyId: string, listId: string): Promise<boolean>;
  /** Contact IDs by (lower-cased) email, in one query. */
  contactIdsByEmail(companyId: string, emails: readonly string[]): Promise<Map<string, string>>;
  /** Adds the contacts to the list in one statement; returns those that were not members yet (each a subscriber.list_subscribed event). */
  addMembers(companyId: string, listId: string, subscriberIds: readonly string[], at: Date): Promise<string[]>;
  /** Removes the contacts' memberships; returns how many there were (those still subscribed, each a subscriber.list_unsubscribed event). */
  removeMembers(companyId: string, listId: string, subscriberIds: readonly string[], at: Date): Promise<number>;
}
export const ListRepository = token<ListRepository>("lifecycle.ListRepository");
