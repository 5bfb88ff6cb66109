import type { AccountEvent, DeliveryStatus } from "./account-event.js";
import type { Account, AccountMember, AccountRole, AccountWithCount } from "./model.js";
import type { NameSighting, Sighting, SuggestionJob, SuggestionResult, SuggestionSettings } from "./suggestion.js";
import { token } from "../shared/token.js";

/** A company's accounts and their members. Every method names the company. */
export interface AccountRepository {
  findByExternalId(companyId: string, externalId: string): Promise<AccountWithCount | null>;
  /** Inserts the account; false when the company already has one with its externalId. */
  insert(account: Account): Promise<boolean>;
  /** Saves name, domain and attributes. */
  update(account: Account): Promise<void>;
  /** Every member, owners first. */
  listMembers(companyId: string, accountId: string): Promise<AccountMember[]>;
  findMember(companyId: string, accountId: string, subscriberId: string): Promise<AccountMember | null>;
  /** Adds the contact with the role, or gives an existing member the role; true when added. */
  saveMember(companyId: string, accountId: string, subscriberId: string, role: AccountRole, now: Date): Promise<boolean>;
  /** The account of a suggestion run: created with the suggested name and domain, or, when it exists, left as it is. */
  ensureSuggested(account: Account): Promise<{ readonly accountId: string; readonly created: boolean }>;
  /** Adds the contacts as `member`s; existing members keep their roles. Returns how many were added. */
  addMembers(companyId: string, accountId: string, subscriberIds: readonly string[], now: Date): Promise<number>;
}
export const AccountRepository = token<AccountRepository>("lifecycle.AccountRepository");

export interface DeliveryOutcome {
  readonly status: DeliveryStatus;
  readonly customEventId: string | null;
  readonly error: string | null;
}

/** Account timelines. */
export interface AccountEventRepository {
  /** Stores the event with its deliveries in one transaction; false when the account already has an event with its eventId. */
  insert(event: AccountEvent): Promise<boolean>;
  findByEventId(companyId: string, accountId: string, eventId: string): Promise<AccountEvent | null>;
  settleDelivery(companyId: string, accountEventId: string, subscriberId: string, outcome: DeliveryOutcome, now: Date): Promise<void>;
}
export const AccountEventRepository = token<AccountEventRepository>("lifecycle.AccountEventRepository");

/** Organization-ID suggestion runs and what they read. */
export interface AccountSuggestionRepository {
  /**
   * Inserts the queued run unless a run of the same key is queued or running (the unique index
   * decides, so concurrent requests agree); then that run is returned instead.
   */
  startOrFindActive(job: SuggestionJob): Promise<{ readonly job: SuggestionJob; readonly alreadyRunning: boolean }>;
  find(companyId: string, jobId: string): Promise<SuggestionJob | null>;
  /** Marks a queued or running run as running; null when it is settled or unknown. */
  markRunning(companyId: string, jobId: string, now: Date): Promise<SuggestionJob | null>;
  settle(
    companyId: string,
    jobId: string,
    outcome: { state: "completed"; result: SuggestionResult } | { state: "failed"; error: string },
    now: Date,
  ): Promise<void>;
  /** Custom attribute names of the company's contacts that begin with `account.` (up to `limit`). */
  accountAttributeNames(companyId: string, limit: number): Promise<string[]>;
  /** Each contact with each organization ID it was seen with (attributes, or events since `since`). */
  sightings(companyId: string, settings: SuggestionSettings, since: Date): Promise<Sighting[]>;
  /** Names seen under `nameKey` beside an organization ID. */
  names(companyId: string, settings: SuggestionSettings & { readonly nameKey: string }, since: Date): Promise<NameSighting[]>;
  /** Turns Accounts on for the company. */
  enableAccounts(companyId: string): Promise<void>;
}
export const AccountSuggestionRepository = token<AccountSuggestionRepository>("lifecycle.AccountSuggestionRepository");
