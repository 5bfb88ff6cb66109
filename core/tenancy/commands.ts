import * as t from "io-ts";
import { boundedText, Email, oneOf, optional } from "../shared/codecs.js";
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
