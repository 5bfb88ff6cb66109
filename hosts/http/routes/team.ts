import * as t from "io-ts";
import { CancelInvitation } from "../../../core/team/cancel-invitation.js";
import { InvitationPath, InviteTeamMemberCommand } from "../../../core/team/commands.js";
import { GetTeam } from "../../../core/team/get-team.js";
import { InviteTeamMember } from "../../../core/team/invite-team-member.js";
import { ADMIN_ACCESS_REQUIRED } from "../../../core/team/team-access.js";
import { InvitationView, TeamMemberView } from "../../../core/team/view.js";
import { Id, view, viewWithOptional } from "../../../core/shared/view-fields.js";
import { defineRoute } from "../route.js";
import { routeModule } from "../route-module.js";

/** Owners and admins manage invitations; any other member gets the spec's 'admin access' 403 whatever its key holds. */
const MANAGERS = { allowed: ["owner", "admin"], refusal: ADMIN_ACCESS_REQUIRED } as const;

/** The team (spec, Team; decisions.md, Team; compat-reference §22). The invitee accepts without a key (hosts/http/public/invitations.ts). */
export const teamRoutes = routeModule({ getTeam: GetTeam, invite: InviteTeamMember, cancel: CancelInvitation }, (uses) => [
  defineRoute({
    method: "get",
    path: "/team",
    tag: "Team",
    scopes: ["team:read"],
    summary: "The company's team members (oldest first) and its invitations (newest first; status pending, expired, accepted or cancelled)",
    response: view({ members: t.readonlyArray(TeamMemberView), invitations: t.readonlyArray(InvitationView) }),
    handle: async ({ actor }) => uses.getTeam.execute(actor),
  }),
  defineRoute({
    method: "post",
    path: "/team/invitations",
    tag: "Team",
    scopes: ["team:manage"],
    roles: MANAGERS,
    summary:
      "Invite someone to the team as admin or marketer (owner or admin access). The invitation is emailed from the company's sender with its link " +
      "(inviteUrl, shown here once) and expires after 7 days; accepting it makes the member and shows their API key once. Inviting an address again " +
      "cancels its pending invitation. 409 when the address is already a member. emailQueued false (with warnings) when no email could be queued.",
    body: InviteTeamMemberCommand,
    response: viewWithOptional(
      { invitation: InvitationView, inviteUrl: t.string, emailQueued: t.boolean },
      { warnings: t.readonlyArray(t.string) },
      "CreatedInvitation",
    ),
    errors: [403, 404, 409, 422],
    handle: async ({ input, actor }) => uses.invite.execute(actor, input.body),
  }),
  defineRoute({
    method: "delete",
    path: "/team/invitations/:invitationId",
    tag: "Team",
    scopes: ["team:manage"],
    roles: MANAGERS,
    summary:
      "Cancel an invitation (owner or admin access): a pending or expired one becomes cancelled and its link stops working at once. " +
      "400 when already accepted or already cancelled; 404 'Invitation not found'",
    params: InvitationPath,
    response: view({ invitationId: Id }),
    errors: [400, 403, 404],
    handle: async ({ input, actor }) => uses.cancel.execute(actor, input.params.invitationId),
  }),
]);
