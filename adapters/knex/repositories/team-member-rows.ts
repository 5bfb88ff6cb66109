import * as t from "io-ts";
import type { Knex } from "knex";
import { RoleCodec } from "../../../core/tenancy/commands.js";
import type { TeamMember } from "../../../core/tenancy/model.js";
import { DbDate, decodeRow } from "../row-codecs.js";

/** Team members are read joined with their user; the columns are aliased `member_*`. */
export const TeamMemberRow = t.type({
  member_id: t.string,
  member_company_id: t.string,
  member_user_id: t.string,
  member_role: RoleCodec,
  member_created_at: DbDate,
  member_email: t.string,
  member_name: t.union([t.string, t.null]),
});

export const teamMemberColumns = [
  "m.id as member_id",
  "m.company_id as member_company_id",
  "m.user_id as member_user_id",
  "m.role as member_role",
  "m.created_at as member_created_at",
  "u.email as member_email",
  "u.name as member_name",
] as const;

/** `team_members as m` joined with `users as u`. */
export const selectTeamMembers = (knex: Knex.Transaction | Knex) =>
  knex("team_members as m")
    .join("users as u", "u.id", "m.user_id")
    .select(...teamMemberColumns);

export function toTeamMember(row: unknown): TeamMember {
  const r = decodeRow(TeamMemberRow, row, "team_members");
  return {
    id: r.member_id,
    companyId: r.member_company_id,
    userId: r.member_user_id,
    role: r.member_role,
    createdAt: r.member_created_at,
    email: r.member_email,
    name: r.member_name,
  };
}
