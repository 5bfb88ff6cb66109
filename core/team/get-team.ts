import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { ok, type Result } from "../shared/result.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { InvitationRepository } from "./ports.js";
import { toInvitationView, toTeamMemberView, type InvitationView, type TeamMemberView } from "./view.js";

export interface TeamView {
  readonly members: TeamMemberView[];
  readonly invitations: InvitationView[];
}

/** GET /team: the company's members (oldest first) and its invitations (newest first), whatever their state. */
export class GetTeam {
  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly invitations: InvitationRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor): Promise<Result<TeamView>> => {
    const [members, invitations] = await Promise.all([this.tenancy.listMembers(actor.companyId), this.invitations.list(actor.companyId)]);
    const now = this.clock.now();
    return ok({ members: members.map(toTeamMemberView), invitations: invitations.map((invitation) => toInvitationView(invitation, now)) });
  };
}
