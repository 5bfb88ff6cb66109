import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import type { Actor } from "../shared/actor.js";
import { conflict, notFound } from "../shared/errors.js";
import { fail, isLeft, ok, type Result } from "../shared/result.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { InviteTeamMemberCommand } from "./commands.js";
import type { InvitationLinks } from "./invitation-links.js";
import { INVITATION_TTL_MS, type Invitation } from "./model.js";
import type { InvitationRepository, InvitationTokens } from "./ports.js";
import type { SendInvitationEmail } from "./send-invitation-email.js";
import { requireTeamManager } from "./team-access.js";
import { toInvitationView, type InvitationView } from "./view.js";

export interface CreatedInvitation {
  readonly invitation: InvitationView;
  /** Carries the invitation's secret token: shown here once and emailed, never listed. */
  readonly inviteUrl: string;
  readonly emailQueued: boolean;
  readonly warnings?: string[];
}

/**
 * POST /team/invitations (owners and admins): invites an address as admin or marketer for 7
 * days and emails it the link. A new invitation to the same address supersedes a pending one
 * (its link stops working), so "invite again" is how an invitation is resent. An address that is
 * already a member is a 409.
 */
export class InviteTeamMember {
  constructor(
    private readonly invitations: InvitationRepository,
    private readonly tenancy: TenancyRepository,
    private readonly tokens: InvitationTokens,
    private readonly links: InvitationLinks,
    private readonly sendEmail: SendInvitationEmail,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, input: InviteTeamMemberCommand): Promise<Result<CreatedInvitation>> => {
    const allowed = requireTeamManager(actor);
    if (isLeft(allowed)) return allowed;
    const { companyId } = actor;
    const company = await this.tenancy.findCompany(companyId);
    if (!company) return fail(notFound("Company not found"));
    if (await this.tenancy.findMemberByEmail(companyId, input.email)) return fail(conflict(`${input.email} is already a member of this team`));

    const now = this.clock.now();
    const token = this.tokens.mint();
    const invitation: Invitation = {
      id: this.ids.next("inv"),
      companyId,
      email: input.email,
      role: input.role,
      status: "pending",
      tokenHash: token.hash,
      invitedByMemberId: actor.memberId,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      createdAt: now,
      updatedAt: now,
      acceptedAt: null,
      cancelledAt: null,
      acceptedMemberId: null,
      apiKeyId: null,
    };
    await this.invitations.cancelPendingTo(companyId, input.email, now);
    await this.invitations.insert(invitation);

    const inviteUrl = this.links.forToken(token.plain);
    const inviter = await this.tenancy.findMember(companyId, actor.memberId);
    const email = await this.sendEmail.execute(invitation, company, inviter, inviteUrl);
    return ok({
      invitation: toInvitationView(invitation, now),
      inviteUrl,
      emailQueued: email.queued,
      ...(email.queued ? {} : { warnings: [email.reason] }),
    });
  };
}
