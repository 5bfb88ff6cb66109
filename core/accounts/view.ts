import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, Timestamp, view, viewWithOptional } from "../shared/view-fields.js";
import { CONTACT_DELETED } from "./account-event.js";
import { AccountRoleCodec, SuggestionSourceCodec } from "./commands.js";
import type { AccountMember, AccountWithCount } from "./model.js";
import { RECIPIENT_OPTIONS } from "./recipients.js";
import { SUGGESTION_STATES, type SuggestionJob } from "./suggestion.js";

/** The account record of the API (spec, Account: id, externalId, name, memberCount; decisions: domain, attributes). */
export const AccountView = view(
  {
    id: Id,
    externalId: t.string,
    name: NullableString,
    domain: NullableString,
    attributes: t.record(t.string, t.unknown),
    memberCount: t.number,
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  "Account",
);
export type AccountView = t.TypeOf<typeof AccountView>;

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

export const AccountMemberView = view(
  {
    subscriberId: Id,
    email: t.string,
    firstName: NullableString,
    lastName: NullableString,
    role: AccountRoleCodec,
    joinedAt: Timestamp,
  },
  "AccountMember",
);
export type AccountMemberView = t.TypeOf<typeof AccountMemberView>;

export const toMemberView = (m: AccountMember): AccountMemberView => ({
  subscriberId: m.subscriberId,
  email: m.email,
  firstName: m.firstName,
  lastName: m.lastName,
  role: m.role,
  joinedAt: m.joinedAt.toISOString(),
});

/** One recipient of an account event: delivered, failed (`error`), or skipped as its contact was deleted. */
export const DeliveryReport = viewWithOptional(
  {
    subscriberId: Id,
    email: t.string,
    role: AccountRoleCodec,
    success: t.boolean,
    /** Sequences this delivery started: none until sequences exist. */
    automationsTriggered: t.readonlyArray(t.string),
  },
  { error: t.string, skipped: t.literal(CONTACT_DELETED) },
  "AccountEventDelivery",
);
export type DeliveryReport = t.TypeOf<typeof DeliveryReport>;

/** An event recorded on an account's timeline, and its deliveries to the account's members. */
export const AccountEventReport = view(
  {
    account: view({ id: Id, externalId: t.string, name: NullableString, memberCount: t.number }),
    event: view({ id: Id, name: t.string, time: Timestamp }),
    recipients: oneOf(RECIPIENT_OPTIONS, "AccountEventRecipients"),
    recipientCount: t.number,
    truncated: t.boolean,
    /** The eventId was recorded before: its recipients, properties and time were reused. */
    duplicate: t.boolean,
    deliveries: t.readonlyArray(DeliveryReport),
  },
  "AccountEventReport",
);
export type AccountEventReport = t.TypeOf<typeof AccountEventReport>;

const SuggestionResultView = view(
  {
    organizationIds: t.number,
    accountsCreated: t.number,
    accountsExisting: t.number,
    membersAdded: t.number,
    contactsSeen: t.number,
    valuesSkipped: t.number,
  },
  "SuggestionResult",
);

/** A suggestion run as the spec shows it: `{jobId, state, settings, result, error}`. */
export const SuggestionJobView = view(
  {
    jobId: Id,
    state: oneOf(SUGGESTION_STATES, "SuggestionState"),
    settings: view({ source: SuggestionSourceCodec, propertyKey: t.string, nameKey: NullableString }, "SuggestionSettings"),
    result: t.union([SuggestionResultView, t.null]),
    error: NullableString,
  },
  "SuggestionJob",
);
export type SuggestionJobView = t.TypeOf<typeof SuggestionJobView>;

export const toSuggestionJobView = (job: SuggestionJob): SuggestionJobView => ({
  jobId: job.id,
  state: job.state,
  settings: { source: job.settings.source, propertyKey: job.settings.propertyKey, nameKey: job.settings.nameKey },
  result: job.result,
  error: job.error,
});
