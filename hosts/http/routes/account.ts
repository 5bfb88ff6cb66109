import * as t from "io-ts";
import { map } from "fp-ts/lib/Either.js";
import { PRESET_NAMES } from "../../../core/access/presets.js";
import type { Actor } from "../../../core/shared/actor.js";
import { DescribeAccount, type AccountDescription } from "../../../core/tenancy/describe-account.js";
import { GetCurrentCompany } from "../../../core/tenancy/get-current-company.js";
import type { Company } from "../../../core/tenancy/model.js";
import { RoleCodec } from "../../../core/tenancy/commands.js";
import { BaseUrl } from "../../tokens.js";
import { defineUncheckedRoute, type Route } from "../route.js";
import { Id, NullableString } from "../../../core/shared/view-fields.js";

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

const CompanyEntry = t.type({ id: Id, name: t.string, role: RoleCodec });
const User = t.type({ id: Id, email: t.string, name: NullableString });

/** Identity routes: any valid key may ask who it is, whatever its scopes. */
export const accountRoutes: readonly Route[] = [
  defineUncheckedRoute({
    method: "get",
    path: "/account",
    tag: "Account",
    scopes: [],
    summary: "The caller, its companies and its key's permissions",
    response: t.type({
      user: User,
      account: User,
      companies: t.array(CompanyEntry),
      currentCompanyId: Id,
      selectedCompanyId: Id,
      apiKeyPermissions: t.type({
        activeKey: t.type({ id: Id, type: t.literal("company") }),
        preset: t.keyof(Object.fromEntries(PRESET_NAMES.map((name) => [name, null])) as Record<(typeof PRESET_NAMES)[number], null>),
        fullAccess: t.boolean,
        scopes: t.array(t.string),
        manageUrl: t.string,
        missingScopeHint: t.string,
      }),
      message: t.string,
    }),
    errors: [403, 404],
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
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/companies",
    tag: "Account",
    scopes: [],
    summary: "The companies the caller belongs to",
    response: t.type({ companies: t.array(CompanyEntry), currentCompanyId: Id }),
    errors: [403, 404],
    handle: async ({ actor, container }) =>
      map((account: AccountDescription) => ({ companies: companiesOf(account), currentCompanyId: account.company.id }))(
        await container.get(DescribeAccount).execute(actor),
      ),
  }),
  defineUncheckedRoute({
    method: "get",
    path: "/subscribers/me",
    tag: "Account",
    scopes: [],
    summary: "The company the key belongs to",
    response: t.type({ account: t.type({ companyId: Id, companyName: t.string, apiKeyType: t.literal("company") }) }),
    errors: [403, 404],
    handle: async ({ actor, container }) =>
      map((company: Company) => ({
        account: { companyId: company.id, companyName: company.name, apiKeyType: "company" },
      }))(await container.get(GetCurrentCompany).execute(actor)),
  }),
];
