import { token } from "../shared/token.js";
import type { TeamMember } from "../tenancy/model.js";
import type { NewTeamMember } from "../tenancy/ports.js";
import type { Invitation } from "./model.js";

/** Team invitations. Every method but the token lookup names the company. */
export interface InvitationRepository {
  insert(invitation: Invitation): Promise<void>;
  find(companyId: string, invitationId: string): Promise<Invitation | null>;
  /** The invitation whose link carries this token (by its hash): the one lookup a token holder makes, without a company. */
  findByTokenHash(tokenHash: string): Promise<Invitation | null>;
  /** The company's invitations, newest first. */
  list(companyId: string): Promise<Invitation[]>;
  /** Cancels the company's pending invitations to this address (a new invitation supersedes them). */
  cancelPendingTo(companyId: string, email: string, at: Date): Promise<void>;
  /** Stores a cancellation, only while the stored invitation is still pending: false when another request changed it first. */
  cancel(cancelled: Invitation): Promise<boolean>;
  /**
   * Stores an acceptance and adds its member in one transaction, only while the invitation is
   * still pending and unexpired at the acceptance's time: null when another request changed it first.
   */
  accept(accepted: Invitation, member: NewTeamMember): Promise<TeamMember | null>;
  /** Notes the key handed to the accepted member. */
  recordApiKey(companyId: string, invitationId: string, apiKeyId: string, at: Date): Promise<void>;
}
export const InvitationRepository = token<InvitationRepository>("lifecycle.InvitationRepository");

export interface MintedInvitationToken {
  /** Goes in the invitation link, shown to the inviter once and emailed; never stored. */
  readonly plain: string;
  readonly hash: string;
}

/** Unguessable invitation tokens and their stored form. */
export interface InvitationTokens {
  mint(): MintedInvitationToken;
  /** The stored form of a presented token, or null when it is not even well-formed. */
  hashPresented(plain: string): string | null;
}
export const InvitationTokens = token<InvitationTokens>("lifecycle.InvitationTokens");
