import * as t from "io-ts";
import { boundedText, Email, oneOf, optional, required } from "../shared/codecs.js";
import { DomainName } from "../shared/domain-name.js";
import { headerText } from "../shared/header-text.js";
import { ROLES } from "./model.js";

export const RoleCodec = oneOf(ROLES, "Role");

/** Also the From display name of a sender profile without one. */
export const CompanyName = headerText(200);

export const CreateCompanyCommand = t.exact(
  t.intersection([t.type({ name: CompanyName, ownerEmail: Email }), t.partial({ ownerName: optional(boundedText(200)) })]),
  "CreateCompanyCommand",
);
export type CreateCompanyCommand = t.TypeOf<typeof CreateCompanyCommand>;

/** POST /companies: a company of the caller's own, for their website; its name defaults to one taken from the domain. */
export const CreateOwnCompanyCommand = t.exact(
  t.intersection([t.type({ domain: required(DomainName) }), t.partial({ name: optional(CompanyName) })]),
  "CreateOwnCompanyCommand",
);
export type CreateOwnCompanyCommand = t.TypeOf<typeof CreateOwnCompanyCommand>;
