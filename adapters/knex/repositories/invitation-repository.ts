import * as t from "io-ts";
import type { Knex } from "knex";
import { oneOf } from "../../../core/shared/codecs.js";
import { INVITABLE_ROLES, type Invitation } from "../../../core/team/model.js";
import type { InvitationRepository } from "../../../core/team/ports.js";
import type { TeamMember } from "../../../core/tenancy/model.js";
import type { NewTeamMember } from "../../../core/tenancy/ports.js";
import { DbDate, DbNullableDate, decodeRow, toDbDate } from "../row-codecs.js";
import { insertTeamMember } from "./tenancy-repository.js";

const NullableId = t.union([t.string, t.null]);

const InvitationRow = t.type({
  id: t.string,
  company_id: t.string,
  email: t.string,
  role: oneOf(INVITABLE_ROLES),
  status: oneOf(["pending", "accepted", "cancelled"] as const),
  token_hash: t.string,
  invited_by_member_id: NullableId,
  expires_at: DbDate,
  created_at: DbDate,
  updated_at: DbDate,
  accepted_at: DbNullableDate,
  cancelled_at: DbNullableDate,
  accepted_member_id: NullableId,
  api_key_id: NullableId,
});

function toInvitation(row: unknown): Invitation {
  const r = decodeRow(InvitationRow, row, "team_invitations");
  return {
    id: r.id,
    companyId: r.company_id,
    email: r.email,
    role: r.role,
    status: r.status,
    tokenHash: r.token_hash,
    invitedByMemberId: r.invited_by_member_id,
    expiresAt: r.expires_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    acceptedAt: r.accepted_at,
    cancelledAt: r.cancelled_at,
    acceptedMemberId: r.accepted_member_id,
    apiKeyId: r.api_key_id,
  };
}

export class KnexInvitationRepository implements InvitationRepository {
  constructor(private readonly knex: Knex) {}

  async insert(invitation: Invitation): Promise<void> {
    await this.knex("team_invitations").insert({
      id: invitation.id,
      company_id: invitation.companyId,
      email: invitation.email,
      role: invitation.role,
      status: invitation.status,
      token_hash: invitation.tokenHash,
      invited_by_member_id: invitation.invitedByMemberId,
      expires_at: toDbDate(invitation.expiresAt),
      created_at: toDbDate(invitation.createdAt),
      updated_at: toDbDate(invitation.updatedAt),
      accepted_at: toDbDate(invitation.acceptedAt),
      cancelled_at: toDbDate(invitation.cancelledAt),
      accepted_member_id: invitation.acceptedMemberId,
      api_key_id: invitation.apiKeyId,
    });
  }

  async find(companyId: string, invitationId: string): Promise<Invitation | null> {
    const row = await this.knex("team_invitations").where({ company_id: companyId, id: invitationId }).first();
    return row ? toInvitation(row) : null;
  }

  async findByTokenHash(tokenHash: string): Promise<Invitation | null> {
    const row = await this.knex("team_invitations").where({ token_hash: tokenHash }).first();
    return row ? toInvitation(row) : null;
  }

  async list(companyId: string): Promise<Invitation[]> {
    const rows = await this.knex("team_invitations")
      .where({ company_id: companyId })
      .orderBy([
        { column: "created_at", order: "desc" },
        { column: "id", order: "desc" },
      ]);
    return rows.map(toInvitation);
  }

  async cancelPendingTo(companyId: string, email: string, at: Date): Promise<void> {
    await this.knex("team_invitations")
      .where({ company_id: companyId, email, status: "pending" })
      .update({ status: "cancelled", cancelled_at: toDbDate(at), updated_at: toDbDate(at) });
  }

  async cancel(cancelled: Invitation): Promise<boolean> {
    const changed = await this.knex("team_invitations")
      .where({ company_id: cancelled.companyId, id: cancelled.id, status: "pending" })
      .update({ status: "cancelled", cancelled_at: toDbDate(cancelled.cancelledAt), updated_at: toDbDate(cancelled.updatedAt) });
    return changed === 1;
  }

  async accept(accepted: Invitation, member: NewTeamMember): Promise<TeamMember | null> {
    const at = toDbDate(accepted.acceptedAt ?? accepted.updatedAt);
    return this.knex.transaction(async (trx) => {
      // Claimed first, in one statement: of two racing acceptances (or an acceptance and a cancel) one wins.
      const claimed = await trx("team_invitations")
        .where({ company_id: accepted.companyId, id: accepted.id, status: "pending" })
        .andWhere("expires_at", ">", at)
        .update({ status: "accepted", accepted_at: at, updated_at: at });
      if (claimed !== 1) return null;
      const added = await insertTeamMember(trx, member);
      await trx("team_invitations").where({ company_id: accepted.companyId, id: accepted.id }).update({ accepted_member_id: added.id });
      return added;
    });
  }

  async recordApiKey(companyId: string, invitationId: string, apiKeyId: string, at: Date): Promise<void> {
    await this.knex("team_invitations")
      .where({ company_id: companyId, id: invitationId })
      .update({ api_key_id: apiKeyId, updated_at: toDbDate(at) });
  }
}
