import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { AddAccountMember } from "../../../core/accounts/add-account-member.js";
import {
  AccountRoleCodec,
  AddAccountMemberCommand,
  ExternalId,
  RecordAccountEventCommand,
  SuggestionSourceCodec,
  SuggestOrganizationIdsCommand,
  UpsertAccountCommand,
} from "../../../core/accounts/commands.js";
import { GetAccount } from "../../../core/accounts/get-account.js";
import { GetSuggestionJob } from "../../../core/accounts/get-suggestion-job.js";
import { RecordAccountEvent } from "../../../core/accounts/record-account-event.js";
import { MAX_ACCOUNT_EVENT_RECIPIENTS, RECIPIENT_OPTIONS } from "../../../core/accounts/recipients.js";
import { SuggestOrganizationIds } from "../../../core/accounts/suggest-organization-ids.js";
import { SUGGESTION_STATES } from "../../../core/accounts/suggestion.js";
import { UpsertAccount } from "../../../core/accounts/upsert-account.js";
import { TrimmedNonEmpty } from "../../../core/shared/codecs.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString, Timestamp } from "../../../core/shared/view-fields.js";

const keys = <K extends string>(values: readonly K[]) => t.keyof(Object.fromEntries(values.map((v) => [v, null])) as Record<K, null>);

const AccountResource = t.type({
  id: Id,
  externalId: t.string,
  name: NullableString,
  domain: NullableString,
  attributes: t.record(t.string, t.unknown),
  memberCount: t.number,
  createdAt: Timestamp,
  updatedAt: Timestamp,
});

const MemberResource = t.type({
  subscriberId: Id,
  email: t.string,
  firstName: NullableString,
  lastName: NullableString,
  role: AccountRoleCodec,
  joinedAt: Timestamp,
});

const DeliveryResource = t.intersection([
  t.type({ subscriberId: Id, email: t.string, role: AccountRoleCodec, success: t.boolean, automationsTriggered: t.array(t.string) }),
  t.partial({ error: t.string, skipped: t.literal("contact_deleted") }),
]);

const SuggestionResultResource = t.type({
  organizationIds: t.number,
  accountsCreated: t.number,
  accountsExisting: t.number,
  membersAdded: t.number,
  contactsSeen: t.number,
  valuesSkipped: t.number,
});

const SuggestionJobResource = t.type({
  jobId: Id,
  state: keys(SUGGESTION_STATES),
  settings: t.type({ source: SuggestionSourceCodec, propertyKey: t.string, nameKey: NullableString }),
  result: t.union([SuggestionResultResource, t.null]),
  error: NullableString,
});

const AccountPath = t.type({ externalId: ExternalId });
const JobPath = t.type({ jobId: TrimmedNonEmpty });

export const accountsRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "post",
    path: "/accounts",
    tag: "Accounts",
    scopes: ["accounts:write"],
    summary: "Create an account (organization) or update the fields given; attributes are merged key by key",
    body: UpsertAccountCommand,
    response: t.type({ account: AccountResource, created: t.boolean }),
    handle: async ({ input, actor, container }) => await container.get(UpsertAccount).execute(actor, input.body),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/accounts/:externalId",
    tag: "Accounts",
    scopes: ["accounts:read"],
    summary: "An account and its members (owners, then admins, then members)",
    params: AccountPath,
    response: t.type({ account: AccountResource, members: t.array(MemberResource) }),
    errors: [404],
    handle: async ({ input, actor, container }) => await container.get(GetAccount).execute(actor, input.params.externalId),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/accounts/:externalId/members",
    tag: "Accounts",
    scopes: ["accounts:write"],
    summary:
      "Add a contact to an account or change its role. A contact named by email is created when new; without a role a new member is a `member` and an existing one keeps its role",
    params: AccountPath,
    body: AddAccountMemberCommand,
    response: t.type({ member: MemberResource, added: t.boolean }),
    errors: [400, 404],
    handle: async ({ input, actor, container }) => await container.get(AddAccountMember).execute(actor, input.params.externalId, input.body),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/accounts/:externalId/events",
    tag: "Accounts",
    scopes: ["accounts:write"],
    summary:
      `Record an event on the account's timeline and deliver it to recipients (${RECIPIENT_OPTIONS.join(", ")}; at most ${MAX_ACCOUNT_EVENT_RECIPIENTS}, ` +
      "`truncated` when more) as contact events carrying event.account.*. An eventId makes retries resume the original deliveries; " +
      "500 with the deliveries when some fail",
    params: AccountPath,
    body: RecordAccountEventCommand,
    response: t.type({
      account: t.type({ id: Id, externalId: t.string, name: NullableString, memberCount: t.number }),
      event: t.type({ id: Id, name: t.string, time: Timestamp }),
      recipients: keys(RECIPIENT_OPTIONS),
      recipientCount: t.number,
      truncated: t.boolean,
      duplicate: t.boolean,
      deliveries: t.array(DeliveryResource),
    }),
    errors: [400, 404],
    handle: async ({ input, actor, container }) => await container.get(RecordAccountEvent).execute(actor, input.params.externalId, input.body),
  }),
  defineUncheckedRoute({
    method: "post",
    path: "/account-suggestions/organization-ids",
    tag: "Accounts",
    scopes: ["subscribers:write"],
    summary:
      "Start a background run creating one account per distinct value of propertyKey (contact attributes, or custom events of the last 180 days), " +
      "adding each contact seen with it as a member; one run per key at a time",
    body: SuggestOrganizationIdsCommand,
    response: t.type({ jobId: Id, alreadyRunning: t.boolean, job: SuggestionJobResource }),
    errors: [400, 409],
    successStatus: 202,
    handle: async ({ input, actor, container }) => await container.get(SuggestOrganizationIds).execute(actor, input.body),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/account-suggestions/organization-ids/jobs/:jobId",
    tag: "Accounts",
    scopes: ["subscribers:read"],
    summary: "The state, settings and result of an organization-ID suggestion run",
    params: JobPath,
    response: t.type({ job: SuggestionJobResource }),
    errors: [404],
    handle: async ({ input, actor, container }) => map((job) => ({ job }))(await container.get(GetSuggestionJob).execute(actor, input.params.jobId)),
  }),
];
