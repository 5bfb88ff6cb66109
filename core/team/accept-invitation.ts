import { effectiveScopes } from "../access/permissions.js";
import type { IssueApiKey } from "../api-keys/issue-api-key.js";
import type { Clock } from "../ports/clock.js";
import type { IdGenerator } from "../ports/id-generator.js";
import { conflict } from "../shared/errors.js";
import { fail, isLeft, ok, type Result } from "../shared/result.js";
import type { Company, TeamMember } from "../tenancy/model.js";
import type { TenancyRepository } from "../tenancy/ports.js";
import type { AcceptInvitationCommand } from "./commands.js";
import { INVITATION_NOT_FOUND, statusAt, transition, type Invitation, type InvitableRole, type InvitationStatus } from "./model.js";
import type { InvitationRepository, InvitationTokens } from "./ports.js";
import { toTeamMemberView, type TeamMemberView } from "./view.js";

export interface AcceptedInvitation {
  readonly member: TeamMemberView;
  readonly company: { readonly id: string; readonly name: string };
  /** `key` is the plain key: shown in this answer only, stored as a hash. */
  readonly apiKey: { readonly id: string; readonly key: string; readonly prefix: string; readonly scopes: string[] };
}

/** What the invitation page shows before the invitee accepts. */
export interface InvitationPreview {
  readonly companyName: string;
  readonly email: string;
  readonly role: InvitableRole;
  readonly status: InvitationStatus;
  readonly expiresAt: Date;
}

const KEY_NAME = "Invitation key";

/**
 * Accepting an invitation (public: the token in the link is the credential). A pending,
 * unexpired invitation makes its address a member with the invited role and hands that member a
 * full-access key (cut to the role's ceiling), shown once. A token that is unknown or not even
 * well-formed is 404 'Invitation not found'; an expired, cancelled or accepted one is a 400.
 */
export class AcceptInvitation {
  constructor(
    private readonly invitations: InvitationRepository,
    private readonly tenancy: TenancyRepository,
    private readonly tokens: InvitationTokens,
    private readonly issuer: IssueApiKey,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** The invitation a token names, to show it; changes nothing (mail scanners fetch links). */
  show = async (token: string): Promise<Result<InvitationPreview>> => {
    const found = await this.find(token);
    if (isLeft(found)) return found;
    const { invitation, company } = found.right;
    return ok({
      companyName: company.name,
      email: invitation.email,
      role: invitation.role,
      status: statusAt(invitation, this.clock.now()),
      expiresAt: invitation.expiresAt,
    });
  };

  execute = async (input: AcceptInvitationCommand): Promise<Result<AcceptedInvitation>> => {
    const found = await this.find(input.token);
    if (isLeft(found)) return found;
    const { invitation, company } = found.right;
    // Accepted, but the key was never handed over (the server stopped in between): the token holder gets it now.
    if (invitation.status === "accepted" && invitation.apiKeyId === null && invitation.acceptedMemberId) {
      const member = await this.tenancy.findMember(invitation.companyId, invitation.acceptedMemberId);
      if (member) return ok(await this.handOverKey(invitation, member, company));
    }

    const now = this.clock.now();
    const memberId = this.ids.next("mem");
    const accepted = transition(invitation, { type: "accept", memberId }, now);
    if (isLeft(accepted)) return accepted;
    if (await this.tenancy.findMemberByEmail(invitation.companyId, invitation.email))
      return fail(conflict(`${invitation.email} is already a member of this team`));
    const member = await this.invitations.accept(accepted.right, {
      id: memberId,
      companyId: invitation.companyId,
      role: invitation.role,
      createdAt: now,
      user: { id: this.ids.next("usr"), email: invitation.email, name: input.name ?? null, createdAt: now },
    });
    if (!member) {
      // Another request accepted or cancelled it first: answer as that state does.
      const current = await this.invitations.find(invitation.companyId, invitation.id);
      const again = current ? transition(current, { type: "accept", memberId }, this.clock.now()) : fail(INVITATION_NOT_FOUND);
      return isLeft(again) ? again : fail(conflict("The invitation changed while it was being accepted: try again"));
    }
    return ok(await this.handOverKey(accepted.right, member, company));
  };

  private async find(token: string): Promise<Result<{ readonly invitation: Invitation; readonly company: Company }>> {
    const hash = this.tokens.hashPresented(token);
    const invitation = hash ? await this.invitations.findByTokenHash(hash) : null;
    const company = invitation ? await this.tenancy.findCompany(invitation.companyId) : null;
    return invitation && company ? ok({ invitation, company }) : fail(INVITATION_NOT_FOUND);
  }

  private async handOverKey(invitation: Invitation, member: TeamMember, company: Company): Promise<AcceptedInvitation> {
    const { record, plain } = await this.issuer.issue(member, KEY_NAME, { preset: "full_access", selectedScopes: null });
    await this.invitations.recordApiKey(invitation.companyId, invitation.id, record.key.id, this.clock.now());
    return {
      member: toTeamMemberView(member),
      company: { id: company.id, name: company.name },
      apiKey: { id: record.key.id, key: plain, prefix: record.key.prefix, scopes: effectiveScopes(null, member.role) },
    };
  }
}
