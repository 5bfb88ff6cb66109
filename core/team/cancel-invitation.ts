import type { Clock } from "../ports/clock.js";
import type { Actor } from "../shared/actor.js";
import { fail, isLeft, ok, type Result } from "../shared/result.js";
import { INVITATION_NOT_FOUND, transition } from "./model.js";
import type { InvitationRepository } from "./ports.js";
import { requireTeamManager } from "./team-access.js";

/**
 * DELETE /team/invitations/{id} (owners and admins): a pending or expired invitation becomes
 * cancelled and its link stops working at once; accepted or cancelled ones are a 400.
 */
export class CancelInvitation {
  constructor(
    private readonly invitations: InvitationRepository,
    private readonly clock: Clock,
  ) {}

  execute = async (actor: Actor, invitationId: string): Promise<Result<{ readonly invitationId: string }>> => {
    const allowed = requireTeamManager(actor);
    if (isLeft(allowed)) return allowed;
    // An acceptance racing the cancel wins or loses as one statement: read again and decide again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const invitation = await this.invitations.find(actor.companyId, invitationId);
      if (!invitation) return fail(INVITATION_NOT_FOUND);
      const cancelled = transition(invitation, { type: "cancel" }, this.clock.now());
      if (isLeft(cancelled)) return cancelled;
      if (await this.invitations.cancel(cancelled.right)) return ok({ invitationId: invitation.id });
    }
    return fail(INVITATION_NOT_FOUND);
  };
}
