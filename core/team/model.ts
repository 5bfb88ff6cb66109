import type { Role } from "../tenancy/model.js";
import { invalidState, notFound } from "../shared/errors.js";
import { fail, ok, type Result } from "../shared/result.js";

/**
 * Team invitations (spec, States: Team invitation). `pending` until accepted, cancelled or past
 * its expiry; `expired` is never stored: a pending invitation past `expiresAt` reads as expired.
 */
export const INVITATION_STATUSES = ["pending", "expired", "accepted", "cancelled"] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];
export type StoredInvitationStatus = Exclude<InvitationStatus, "expired">;

/** The roles an invitation can give: a company has one owner, made by the operator. */
export const INVITABLE_ROLES = ["admin", "marketer"] as const satisfies readonly Role[];
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

/** decisions.md: invitations expire after 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface Invitation {
  readonly id: string;
  readonly companyId: string;
  readonly email: string;
  readonly role: InvitableRole;
  readonly status: StoredInvitationStatus;
  /** SHA-256 of the token in the invitation link; the token itself is never stored. */
  readonly tokenHash: string;
  readonly invitedByMemberId: string | null;
  readonly expiresAt: Date;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly acceptedAt: Date | null;
  readonly cancelledAt: Date | null;
  /** The member the acceptance made. */
  readonly acceptedMemberId: string | null;
  /** The key handed to that member; null between the acceptance and the key (a retry of the link finishes it). */
  readonly apiKeyId: string | null;
}

export const statusAt = (invitation: Invitation, now: Date): InvitationStatus =>
  invitation.status === "pending" && now.getTime() >= invitation.expiresAt.getTime() ? "expired" : invitation.status;

export type InvitationEvent = { readonly type: "cancel" } | { readonly type: "accept"; readonly memberId: string };

export const INVITATION_NOT_FOUND = notFound("Invitation not found");
export const ALREADY_ACCEPTED = "Invitation has already been accepted";
export const ALREADY_CANCELLED = "Invitation has already been cancelled: create a new invitation instead";
export const EXPIRED = "This invitation has expired: ask a team owner or admin for a new one";
export const CANCELLED_LINK = "This invitation was cancelled: ask a team owner or admin for a new one";

/**
 * The pure state machine of an invitation (the spec's table for cancel; accept as decisions.md
 * adds it). Expiry is read at `now`, so an expired invitation can be cancelled but not accepted.
 */
export function transition(invitation: Invitation, event: InvitationEvent, now: Date): Result<Invitation> {
  const status = statusAt(invitation, now);
  switch (event.type) {
    case "cancel":
      if (status === "accepted") return fail(invalidState(ALREADY_ACCEPTED));
      if (status === "cancelled") return fail(invalidState(ALREADY_CANCELLED));
      return ok({ ...invitation, status: "cancelled", cancelledAt: now, updatedAt: now });
    case "accept":
      if (status === "accepted") return fail(invalidState(ALREADY_ACCEPTED));
      if (status === "cancelled") return fail(invalidState(CANCELLED_LINK));
      if (status === "expired") return fail(invalidState(EXPIRED));
      return ok({ ...invitation, status: "accepted", acceptedAt: now, acceptedMemberId: event.memberId, updatedAt: now });
  }
}
