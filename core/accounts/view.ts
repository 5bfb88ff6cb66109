import type { AccountMember, AccountWithCount } from "./model.js";
import type { SuggestionJob, SuggestionResult, SuggestionSettings, SuggestionState } from "./suggestion.js";

/** The account record of the API (spec, Account: id, externalId, name, memberCount; decisions: domain, attributes). */
export interface AccountView {
  readonly id: string;
  readonly externalId: string;
  readonly name: string | null;
  readonly domain: string | null;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly memberCount: number;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const toAccountView = (a: AccountWithCount): AccountView => ({
  id: a.id,
  externalId: a.externalId,
  name: a.name,
  domain: a.domain,
  attributes: a.attributes,
  memberCount: a.memberCount,
  createdAt: a.createdAt.toISOString(),
  updatedAt: a.updatedAt.toISOString(),
});

export interface AccountMemberView {
  readonly subscriberId: string;
  readonly email: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly role: string;
  readonly joinedAt: string;
}

export const toMemberView = (m: AccountMember): AccountMemberView => ({
  subscriberId: m.subscriberId,
  email: m.email,
  firstName: m.firstName,
  lastName: m.lastName,
  role: m.role,
  joinedAt: m.joinedAt.toISOString(),
});

/** A suggestion run as the spec shows it: `{jobId, state, settings, result, error}`. */
export interface SuggestionJobView {
  readonly jobId: string;
  readonly state: SuggestionState;
  readonly settings: SuggestionSettings;
  readonly result: SuggestionResult | null;
  readonly error: string | null;
}

export const toSuggestionJobView = (job: SuggestionJob): SuggestionJobView => ({
  jobId: job.id,
  state: job.state,
  settings: { source: job.settings.source, propertyKey: job.settings.propertyKey, nameKey: job.settings.nameKey },
  result: job.result,
  error: job.error,
});
