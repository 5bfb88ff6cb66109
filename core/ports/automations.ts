import { token } from "../shared/token.js";
import type { Subscriber } from "../subscribers/model.js";

/** Something that happened to contacts that may start automations (sequences). */
export type AutomationOccurrence =
  /**
   * Contacts joined the company (`created`) and/or lists (`listIds`): the `contact_added`
   * sequences for any new contact, any list, or one of these lists.
   */
  | { readonly trigger: "contact_added"; readonly created: boolean; readonly listIds: readonly string[] }
  /** Tags (normalised names) were put on contacts that did not carry them. */
  | { readonly trigger: "tag_added"; readonly tagNames: readonly string[] }
  /** A custom event of the contact: `event_received` and `frequency` sequences. */
  | {
      readonly trigger: "event_received";
      readonly eventName: string;
      readonly properties: Readonly<Record<string, unknown>>;
      readonly occurredAt: Date;
    };

/** Why a contact leaves every sequence at once. */
export type ExitReason = "unsubscribed" | "bounced" | "complained";

/** The contact an exit names: by ID, or the company's contact with this (lower-cased) email. */
export type ExitingContact = { readonly subscriberId: string } | { readonly email: string };

/**
 * The one entry point of automations. Whatever creates contacts, tags them, puts them on lists or
 * records their events (the API, imports, warehouse syncs, accounts, and later forms, web
 * tracking and integrations) tells it what happened; whatever makes a contact unreachable tells
 * it that the contact leaves. Custom events reach it through ContactEvents.
 */
export interface Automations {
  /**
   * Enrolls the contacts in every live sequence the occurrence triggers (contacts that are not
   * active, or unconfirmed under double opt-in, enter none). Resolves to the IDs of the sequences
   * each contact entered, by contact ID; contacts that entered none are absent.
   */
  trigger(companyId: string, subscriberIds: readonly string[], occurrence: AutomationOccurrence): Promise<ReadonlyMap<string, readonly string[]>>;
  /** Cancels every running enrollment of the contact, in every sequence, with the reason; resolves to how many. */
  exit(companyId: string, contact: ExitingContact, reason: ExitReason): Promise<number>;
  /** A contact's fields or custom attributes were saved (`before` -> `after`): the attribute_change goals it reaches convert. */
  contactChanged(before: Subscriber, after: Subscriber, at: Date): Promise<void>;
  /**
   * The contact fields and custom attributes whose changes the company's automations watch (its
   * attribute_change goals): a background write reports their changes with a job of its own.
   */
  watchedFields(companyId: string): Promise<readonly string[]>;
}
export const Automations = token<Automations>("lifecycle.Automations");

/** The sequences started, and a warning when they could not be (the caller's own write stands). */
export interface TriggerOutcome {
  readonly started: ReadonlyMap<string, readonly string[]>;
  readonly warnings: string[];
}

/**
 * Triggers automations after the caller's write is stored: a failure here does not undo that
 * write, it becomes a warning of the response.
 */
export async function triggerAfterWrite(
  automations: Automations,
  companyId: string,
  subscriberIds: readonly string[],
  occurrence: AutomationOccurrence,
): Promise<TriggerOutcome> {
  if (subscriberIds.length === 0) return { started: new Map(), warnings: [] };
  try {
    return { started: await automations.trigger(companyId, subscriberIds, occurrence), warnings: [] };
  } catch (error) {
    const cause = error instanceof Error ? error.message : String(error);
    return { started: new Map(), warnings: [`The change was saved, but its sequences could not be started: ${cause}`] };
  }
}

/** Triggers several occurrences for the same contacts, in order, gathering what they started and their warnings. */
export async function triggerAllAfterWrite(
  automations: Automations,
  companyId: string,
  subscriberIds: readonly string[],
  occurrences: readonly AutomationOccurrence[],
): Promise<TriggerOutcome> {
  const started = new Map<string, string[]>();
  const warnings = new Set<string>();
  for (const occurrence of occurrences) {
    const outcome = await triggerAfterWrite(automations, companyId, subscriberIds, occurrence);
    for (const [subscriberId, sequenceIds] of outcome.started) started.set(subscriberId, [...(started.get(subscriberId) ?? []), ...sequenceIds]);
    for (const warning of outcome.warnings) warnings.add(warning);
  }
  return { started, warnings: [...warnings] };
}

/** What a new contact starts: `contact_added` (with the lists it joined), then `tag_added` for the tags it came with. */
export const newContactOccurrences = (listIds: readonly string[], tagNames: readonly string[]): AutomationOccurrence[] => [
  { trigger: "contact_added", created: true, listIds },
  ...(tagNames.length > 0 ? [{ trigger: "tag_added" as const, tagNames }] : []),
];

/** How many enrollments an outcome started. */
export const startedCount = (started: ReadonlyMap<string, readonly string[]>): number =>
  [...started.values()].reduce((sum, sequences) => sum + sequences.length, 0);
