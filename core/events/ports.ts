import type { CustomEvent, EventDefinition } from "./model.js";
import { token } from "../shared/token.js";

/** Just enough of a contact to record an event for it: the hot path reads nothing else. */
export interface ContactKey {
  readonly id: string;
  readonly email: string;
  readonly externalId: string | null;
}

export interface StoreOutcome {
  readonly stored: boolean;
  /** This event is the one that created its name's definition. */
  readonly definitionCreated: boolean;
}

/** A company's custom events and event definitions. Every method names the company. */
export interface CustomEventRepository {
  /** The contact with this email (lower-cased) or externalId, in one indexed lookup. */
  findContact(companyId: string, by: { readonly email: string } | { readonly externalId: string }): Promise<ContactKey | null>;
  /**
   * Stores the events in order and counts the stored ones in their definitions (created when
   * missing), in one write. An event whose eventId is already stored for its contact and name
   * (earlier, or earlier in the same call) is not stored: `stored: false`.
   */
  store(events: readonly CustomEvent[]): Promise<StoreOutcome[]>;
  /** The contact's stored events carrying any of these eventIds (whatever their names). */
  findByEventIds(companyId: string, subscriberId: string, eventIds: readonly string[]): Promise<CustomEvent[]>;
  /** Definitions by name (all when `name` is null), most recently seen first. */
  listDefinitions(companyId: string, name: string | null): Promise<EventDefinition[]>;
  /** The most recently received event of the name. */
  lastEvent(companyId: string, name: string): Promise<CustomEvent | null>;
}
export const CustomEventRepository = token<CustomEventRepository>("lifecycle.CustomEventRepository");
