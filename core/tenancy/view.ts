import * as t from "io-ts";
import { Id, NullableString, view } from "../shared/view-fields.js";
import { RoleCodec } from "./commands.js";
import type { AccountDescription } from "./describe-account.js";

/** The calling person as the identity routes show them (compat-reference, Account). */
export const AccountUserView = view({ id: Id, email: t.string, name: NullableString }, "AccountUser");
export type AccountUserView = t.TypeOf<typeof AccountUserView>;

/** One company the caller belongs to, with their role there. */
export const CompanyEntryView = view({ id: Id, name: t.string, role: RoleCodec }, "CompanyEntry");
export type CompanyEntryView = t.TypeOf<typeof CompanyEntryView>;

export const toAccountUserView = (account: AccountDescription): AccountUserView => ({
  id: account.member.userId,
  email: account.member.email,
  name: account.member.name,
});

export const toCompanyEntryViews = (account: AccountDescription): CompanyEntryView[] =>
  account.memberships.map(({ company, member }) => ({ id: company.id, name: company.name, role: member.role }));
