import { isConsumerDomain } from "../subscribers/model.js";

/**
 * The organization-ID suggestion run (spec, Accounts): one account per distinct value of a
 * contact property, read from contacts' custom attributes or from their recent custom events.
 */
export const SUGGESTION_SOURCES = ["event", "attribute"] as const;
export type SuggestionSource = (typeof SUGGESTION_SOURCES)[number];

export const SUGGESTION_STATES = ["queued", "running", "completed", "failed"] as const;
export type SuggestionState = (typeof SUGGESTION_STATES)[number];

/** For `event`, only events of this many days are read. */
export const EVENT_WINDOW_DAYS = 180;

/** Custom attribute names with this prefix would collide with the account fields sequences read. */
export const ACCOUNT_ATTRIBUTE_PREFIX = "account.";

/** Organization IDs longer than an account's externalId can hold are left out (and counted). */
export const MAX_ORGANIZATION_ID_LENGTH = 255;
const MAX_NAME_LENGTH = 255;

export interface SuggestionSettings {
  readonly source: SuggestionSource;
  readonly propertyKey: string;
  readonly nameKey: string | null;
}

export interface SuggestionResult {
  /** Distinct organization IDs found. */
  readonly organizationIds: number;
  readonly accountsCreated: number;
  /** Accounts that existed already: their names, domains and member roles are kept. */
  readonly accountsExisting: number;
  readonly membersAdded: number;
  /** Distinct contacts seen with an organization ID. */
  readonly contactsSeen: number;
  /** Values that cannot be an account's externalId (longer than 255 characters). */
  readonly valuesSkipped: number;
}

export interface SuggestionJob {
  readonly id: string;
  readonly companyId: string;
  readonly settings: SuggestionSettings;
  readonly state: SuggestionState;
  readonly result: SuggestionResult | null;
  readonly error: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly completedAt: Date | null;
}

export const isActive = (state: SuggestionState): boolean => state === "queued" || state === "running";

/** A contact seen with an organization ID (once per contact and value). */
export interface Sighting {
  readonly organizationId: string;
  readonly subscriberId: string;
  readonly email: string;
}

/** A name seen for an organization ID (under `nameKey`), with when it was last seen. */
export interface NameSighting {
  readonly organizationId: string;
  readonly name: string;
  readonly seenAt: Date;
}

export interface SuggestedAccount {
  readonly externalId: string;
  /** From `nameKey`, else the most shared work domain, else none. */
  readonly name: string | null;
  /** The work-email domain most of its contacts share. */
  readonly domain: string | null;
  readonly subscriberIds: readonly string[];
}

export interface SuggestionPlan {
  readonly accounts: readonly SuggestedAccount[];
  readonly contactsSeen: number;
  readonly valuesSkipped: number;
}

/** A property value as an organization ID: strings trimmed, numbers as written; anything else is no ID. */
export function organizationIdOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value !== "string") return null;
  const trimmed = value.trim();
  return trimmed.length > 0 ? trimmed : null;
}

export const domainOf = (email: string): string => email.slice(email.lastIndexOf("@") + 1).toLowerCase();

/** The work domain (not a consumer mailbox) most of the addresses share; ties go to the first alphabetically. */
export function mostSharedWorkDomain(emails: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const email of emails) {
    const domain = domainOf(email);
    if (!domain || isConsumerDomain(domain)) continue;
    counts.set(domain, (counts.get(domain) ?? 0) + 1);
  }
  let best: string | null = null;
  let bestCount = 0;
  for (const [domain, count] of counts) {
    if (count > bestCount || (count === bestCount && best !== null && domain < best)) {
      best = domain;
      bestCount = count;
    }
  }
  return best;
}

/** The accounts a run proposes, in externalId order. */
export function planAccounts(sightings: readonly Sighting[], names: readonly NameSighting[]): SuggestionPlan {
  const contacts = new Map<string, Map<string, string>>();
  const skipped = new Set<string>();
  for (const sighting of sightings) {
    if (sighting.organizationId.length > MAX_ORGANIZATION_ID_LENGTH) {
      skipped.add(sighting.organizationId);
      continue;
    }
    let members = contacts.get(sighting.organizationId);
    if (!members) contacts.set(sighting.organizationId, (members = new Map<string, string>()));
    members.set(sighting.subscriberId, sighting.email);
  }

  const latestName = new Map<string, NameSighting>();
  for (const sighting of names) {
    const current = latestName.get(sighting.organizationId);
    if (!current || sighting.seenAt > current.seenAt || (sighting.seenAt.getTime() === current.seenAt.getTime() && sighting.name < current.name)) {
      latestName.set(sighting.organizationId, sighting);
    }
  }

  const accounts = [...contacts.keys()].sort().map((externalId): SuggestedAccount => {
    const members = contacts.get(externalId)!;
    const domain = mostSharedWorkDomain([...members.values()]);
    const named = latestName.get(externalId)?.name.slice(0, MAX_NAME_LENGTH) ?? null;
    return { externalId, name: named ?? domain, domain, subscriberIds: [...members.keys()].sort() };
  });
  const seen = new Set(accounts.flatMap((account) => account.subscriberIds));
  return { accounts, contactsSeen: seen.size, valuesSkipped: skipped.size };
}
