import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { PRESET_NAMES } from "../../../core/access/presets.js";
import type { Actor } from "../../../core/shared/actor.js";
import { oneOf } from "../../../core/shared/codecs.js";
import { GetCompanyProfile } from "../../../core/company/get-company-profile.js";
import { CompanyView } from "../../../core/company/view.js";
import { CreateOwnCompanyCommand } from "../../../core/tenancy/commands.js";
import { CreateOwnCompany } from "../../../core/tenancy/create-own-company.js";
import { DescribeAccount, type AccountDescription } from "../../../core/tenancy/describe-account.js";
import { GetCurrentCompany } from "../../../core/tenancy/get-current-company.js";
import type { Company } from "../../../core/tenancy/model.js";
import { AccountUserView, CompanyEntryView, toAccountUserView, toCompanyEntryViews } from "../../../core/tenancy/view.js";
import { Id, view } from "../../../core/shared/view-fields.js";
import { BaseUrl } from "../../tokens.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

const ApiKeyPermissions = view({
  activeKey: view({ id: Id, type: t.literal("company") }),
  preset: oneOf(PRESET_NAMES, "Preset"),
  fullAccess: t.boolean,
  scopes: t.readonlyArray(t.string),
  manageUrl: t.string,
  missingScopeHint: t.string,
});

const permissionsOf = (actor: Actor, baseUrl: string): t.TypeOf<typeof ApiKeyPermissions> => ({
  activeKey: { id: actor.apiKeyId, type: "company" },
  preset: actor.apiKeyPreset,
  fullAccess: actor.apiKeyPreset === "full_access",
  scopes: [...actor.scopes],
  manageUrl: `${baseUrl}/api/v1/api-keys`,
  missingScopeHint: "A request needing a scope this key lacks fails with 403 naming the scope; create a key with it via POST /api/v1/api-keys.",
});

/** Identity routes: any valid key may ask who it is, whatever its scopes. */
export const tenancyRoutes = routeModule(
  {
    describeAccount: DescribeAccount,
    getCurrentCompany: GetCurrentCompany,
    createOwnCompany: CreateOwnCompany,
    getCompanyProfile: GetCompanyProfile,
    baseUrl: BaseUrl,
  },
  (uses) => [
    defineRoute({
      method: "get",
      path: "/account",
      tag: "Account",
      scopes: [],
      summary: "The caller, its companies and its key's permissions",
      response: view({
        user: AccountUserView,
        account: AccountUserView,
        companies: t.readonlyArray(CompanyEntryView),
        currentCompanyId: Id,
        selectedCompanyId: Id,
        apiKeyPermissions: ApiKeyPermissions,
        message: t.string,
      }),
      errors: [403, 404],
      handle: async ({ actor }) =>
        map((account: AccountDescription) => ({
          user: toAccountUserView(account),
          account: toAccountUserView(account),
          companies: toCompanyEntryViews(account),
          currentCompanyId: account.company.id,
          selectedCompanyId: account.company.id,
          apiKeyPermissions: permissionsOf(actor, uses.baseUrl),
          message: `Acting in ${account.company.name} as ${account.member.role}.`,
        }))(await uses.describeAccount.execute(actor)),
    }),
    defineRoute({
      method: "get",
      path: "/companies",
      tag: "Account",
      scopes: [],
      summary: "The companies the caller belongs to",
      response: view({ companies: t.readonlyArray(CompanyEntryView), currentCompanyId: Id }),
      errors: [403, 404],
      handle: async ({ actor }) =>
        map((account: AccountDescription) => ({ companies: toCompanyEntryViews(account), currentCompanyId: account.company.id }))(
          await uses.describeAccount.execute(actor),
        ),
    }),
    defineRoute({
      method: "post",
      path: "/companies",
      tag: "Account",
      scopes: ["companies:manage"],
      summary:
        "Create another company, owned by the person behind the key. body: domain (required, the company's website, kept as websiteUrl https://<domain>), " +
        "name (default: the domain's first label after www, capitalised). status is ready at once. The same key acts in the new company when a request " +
        "selects it with x-company-id (as its owner, within the key's own scopes); no other person's key can select it (403 'No company selected')",
      body: CreateOwnCompanyCommand,
      response: view({ company: CompanyView, message: t.string }),
      errors: [403, 422],
      handle: async ({ input, actor }) => {
        const created = await uses.createOwnCompany.execute(actor, input.body);
        if (created._tag === "Left") return created;
        return map((company: t.TypeOf<typeof CompanyView>) => ({
          company,
          message: `Company '${company.name}' created and ready to use: select it with the header x-company-id: ${company.id}.`,
        }))(await uses.getCompanyProfile.execute(created.right.id));
      },
    }),
    defineRoute({
      method: "get",
      path: "/subscribers/me",
      tag: "Account",
      scopes: [],
      summary: "The company the key belongs to",
      response: view({ account: view({ companyId: Id, companyName: t.string, apiKeyType: t.literal("company") }) }),
      errors: [403, 404],
      handle: async ({ actor }) =>
        map((company: Company) => ({
          account: { companyId: company.id, companyName: company.name, apiKeyType: "company" as const },
        }))(await uses.getCurrentCompany.execute(actor)),
    }),
  ],
);
