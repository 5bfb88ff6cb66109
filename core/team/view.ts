import * as t from "io-ts";
import { oneOf } from "../shared/codecs.js";
import { Id, NullableString, NullableTimestamp, Timestamp, view } from "../shared/view-fields.js";
import { RoleCodec } from "../tenancy/commands.js";
import type { TeamMember } from "../tenancy/model.js";
import { InvitableRoleCodec } from "./commands.js";
import { INVITATION_STATUSES, statusAt, type Invitation } from "./model.js";

export const TeamMemberView = view({ id: Id, email: t.string, name: NullableString, role: RoleCodec, createdAt: Timestamp }, "TeamMember");
export type TeamMemberView = t.TypeOf<typeof TeamMemberView>;

export const InvitationView = view(
  {
    id: Id,
    email: t.string,
    role: InvitableRoleCodec,
    status: oneOf(INVITATION_STATUSES, "InvitationStatus"),
    expiresAt: Timestamp,
    createdAt: Timestamp,
    invitedBy: NullableString,
    acceptedAt: NullableTimestamp,
    cancelledAt: NullableTimestamp,
  },
  "Invitation",
);
export type InvitationView = t.TypeOf<typeof InvitationView>;

export const toTeamMemberView = (member: TeamMember): TeamMemberView => ({
  id: member.id,
  email: member.email,
  name: member.name,
  role: member.role,
  createdAt: member.createdAt.toISOString(),
});

/** `invitedBy`: the inviting member's ID (null once that member is gone). */
export const toInvitationView = (invitation: Invitation, now: Date): InvitationView => ({
  id: invitation.id,
  email: invitation.email,
  role: invitation.role,
  status: statusAt(invitation, now),
  expiresAt: invitation.expiresAt.toISOString(),
  createdAt: invitation.createdAt.toISOString(),
  invitedBy: invitation.invitedByMemberId,
  acceptedAt: invitation.acceptedAt?.toISOString() ?? null,
  cancelledAt: invitation.cancelledAt?.toISOString() ?? null,
});
