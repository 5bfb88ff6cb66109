import * as t from "io-ts";
import { AddAccountMember } from "../../../core/accounts/add-account-member.js";
import {
  AddAccountMemberCommand,
  ExternalId,
  RecordAccountEventCommand,
  SuggestOrganizationIdsCommand,
  UpsertAccountCommand,
} from "../../../core/accounts/commands.js";
import { GetAccount } from "../../../core/accounts/get-account.js";
import { GetSuggestionJob } from "../../../core/accounts/get-suggestion-job.js";
import { RecordAccountEvent } from "../../../core/accounts/record-account-event.js";
import { MAX_ACCOUNT_EVENT_RECIPIENTS, RECIPIENT_OPTIONS } from "../../../core/accounts/recipients.js";
import { SuggestOrganizationIds } from "../../../core/accounts/suggest-organization-ids.js";
import { UpsertAccount } from "../../../core/accounts/upsert-account.js";
import { AccountEventReport, AccountMemberView, AccountView, SuggestionJobView } from "../../../core/accounts/view.js";
import { TrimmedNonEmpty } from "../../../core/shared/codecs.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { defineRoute, under } from "../route.js";
import { routeModule } from "../route-module.js";

const AccountPath = t.type({ externalId: ExternalId });
const JobPath = t.type({ jobId: TrimmedNonEmpty });

export const accountsRoutes = routeModule(
  {
    upsertAccount: UpsertAccount,
    getAccount: GetAccount,
    addAccountMember: AddAccountMember,
    recordAccountEvent: RecordAccountEvent,
    suggestOrganizationIds: SuggestOrganizationIds,
    getSuggestionJob: GetSuggestionJob,
  },
  (uses) => [
    defineRoute({
      method: "post",
      path: "/accounts",
      tag: "Accounts",
      scopes: ["accounts:write"],
      summary: "Create an account (organization) or update the fields given; attributes are merged key by key",
      body: UpsertAccountCommand,
      response: view({ account: AccountView, created: t.boolean }),
      handle: async ({ input, actor }) => uses.upsertAccount.execute(actor, input.body),
    }),
    defineRoute({
      method: "get",
      path: "/accounts/:externalId",
      tag: "Accounts",
      scopes: ["accounts:read"],
      summary: "An account and its members (owners, then admins, then members)",
      params: AccountPath,
      response: view({ account: AccountView, members: t.readonlyArray(AccountMemberView) }),
      errors: [404],
      handle: async ({ input, actor }) => uses.getAccount.execute(actor, input.params.externalId),
    }),
    defineRoute({
      method: "post",
      path: "/accounts/:externalId/members",
      tag: "Accounts",
      scopes: ["accounts:write"],
      summary:
        "Add a contact to an account or change its role. A contact named by email is created when new; without a role a new member is a `member` and an existing one keeps its role",
      params: AccountPath,
      body: AddAccountMemberCommand,
      response: view({ member: AccountMemberView, added: t.boolean }),
      errors: [400, 404],
      handle: async ({ input, actor }) => uses.addAccountMember.execute(actor, input.params.externalId, input.body),
    }),
    defineRoute({
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
      response: AccountEventReport,
      errors: [400, 404],
      handle: async ({ input, actor }) => uses.recordAccountEvent.execute(actor, input.params.externalId, input.body),
    }),
    defineRoute({
      method: "post",
      path: "/account-suggestions/organization-ids",
      tag: "Accounts",
      scopes: ["subscribers:write"],
      summary:
        "Start a background run creating one account per distinct value of propertyKey (contact attributes, or custom events of the last 180 days), " +
        "adding each contact seen with it as a member; one run per key at a time",
      body: SuggestOrganizationIdsCommand,
      response: view({ jobId: Id, alreadyRunning: t.boolean, job: SuggestionJobView }),
      errors: [400, 409],
      successStatus: 202,
      handle: async ({ input, actor }) => uses.suggestOrganizationIds.execute(actor, input.body),
    }),
    defineRoute({
      method: "get",
      path: "/account-suggestions/organization-ids/jobs/:jobId",
      tag: "Accounts",
      scopes: ["subscribers:read"],
      summary: "The state, settings and result of an organization-ID suggestion run",
      params: JobPath,
      response: view({ job: SuggestionJobView }),
      errors: [404],
      handle: async ({ input, actor }) => under("job")(await uses.getSuggestionJob.execute(actor, input.params.jobId)),
    }),
  ],
);
