import { map } from "fp-ts/lib/Either.js";
import { DescribeAccount, type AccountDescription } from "../../../core/tenancy/describe-account.js";
import { GetCurrentCompany } from "../../../core/tenancy/get-current-company.js";
import type { Company } from "../../../core/tenancy/model.js";
import type { Actor } from "../../../core/shared/actor.js";
import { BaseUrl } from "../../container.js";
import type { Route } from "../route.js";

const companiesOf = (account: AccountDescription) =>
  account.memberships.map(({ company, member }) => ({ id: company.id, name: company.name, role: member.role }));

const userOf = (account: AccountDescription) => ({ id: account.member.userId, email: account.member.email, name: account.member.name });

const permissionsOf = (actor: Actor, baseUrl: string) => ({
  activeKey: { id: actor.apiKeyId, type: "company" },
  preset: actor.apiKeyPreset,
  fullAccess: actor.apiKeyPreset === "full_access",
  scopes: [...actor.scopes],
  manageUrl: `${baseUrl}/api/v1/api-keys`,
  missingScopeHint: "A request needing a scope this key lacks fails with 403 naming the scope; create a key with it via POST /api/v1/api-keys.",
});

/** Identity routes: any valid key may ask who it is, whatever its scopes. */
export const accountRoutes: readonly Route[] = [
  {
    method: "get",
    path: "/account",
    scopes: [],
    summary: "The caller, its companies and its key's permissions",
    handle: async ({ actor, container }) =>
      map((account: AccountDescription) => ({
        user: userOf(account),
        account: userOf(account),
        companies: companiesOf(account),
        currentCompanyId: account.company.id,
        selectedCompanyId: account.company.id,
        apiKeyPermissions: permissionsOf(actor, container.get<string>(BaseUrl)),
        message: `Acting in ${account.company.name} as ${account.member.role}.`,
      }))(await container.get(DescribeAccount).execute(actor)),
  },
  {
    method: "get",
    path: "/companies",
    scopes: [],
    summary: "The companies the caller belongs to",
    handle: async ({ actor, container }) =>
      map((account: AccountDescription) => ({ companies: companiesOf(account), currentCompanyId: account.company.id }))(
        await container.get(DescribeAccount).execute(actor),
      ),
  },
  {
    method: "get",
    path: "/subscribers/me",
    scopes: [],
    summary: "The company the key belongs to",
    handle: async ({ actor, container }) =>
      map((company: Company) => ({
        account: { companyId: company.id, companyName: company.name, apiKeyType: "company" },
      }))(await container.get(GetCurrentCompany).execute(actor)),
  },
];
