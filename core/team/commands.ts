import * as t from "io-ts";
import { boundedText, Email, oneOf, optional, required, TrimmedNonEmpty } from "../shared/codecs.js";
import { INVITABLE_ROLES } from "./model.js";

export const InvitableRoleCodec = oneOf(INVITABLE_ROLES, "InvitableRole");

/** POST /team/invitations (decisions.md, Team). */
export const InviteTeamMemberCommand = t.exact(t.type({ email: required(Email), role: required(InvitableRoleCodec) }), "InviteTeamMemberCommand");
export type InviteTeamMemberCommand = t.TypeOf<typeof InviteTeamMemberCommand>;

/** POST /team/invitations/accept: the token of the invitation link, and optionally the new member's name. */
export const AcceptInvitationCommand = t.exact(
  t.intersection([t.type({ token: required(boundedText(200)) }), t.partial({ name: optional(boundedText(200)) })]),
  "AcceptInvitationCommand",
);
export type AcceptInvitationCommand = t.TypeOf<typeof AcceptInvitationCommand>;

export const InvitationPath = t.type({ invitationId: TrimmedNonEmpty }, "InvitationPath");
