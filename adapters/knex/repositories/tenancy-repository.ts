import * as t from "io-ts";
import type { Knex } from "knex";
import type { Company, Membership, Role, TeamMember } from "../../../core/tenancy/model.js";
import type { NewTeamMember, TenancyRepository } from "../../../core/tenancy/ports.js";
import { DbDate, decodeRow, toDbDate } from "../row-codecs.js";
import { SqliteReadCache } from "../sqlite-read-cache.js";
import { selectTeamMembers, teamMemberColumns, toTeamMember } from "./team-member-rows.js";

const CompanyRow = t.type({ id: t.string, name: t.string, website_url: t.union([t.string, t.null]), created_at: DbDate });

const toCompany = (row: unknown): Company => {
  const r = decodeRow(CompanyRow, row, "companies");
  return { id: r.id, name: r.name, websiteUrl: r.website_url, createdAt: r.created_at };
};

export class KnexTenancyRepository implements TenancyRepository {
  private readonly cache: SqliteReadCache;

  constructor(private readonly knex: Knex) {
    this.cache = SqliteReadCache.for(knex);
  }

  async createCompany(company: Company, owner: NewTeamMember): Promise<TeamMember> {
    return this.knex.transaction(async (trx) => {
      await trx("companies").insert({ id: company.id, name: company.name, website_url: company.websiteUrl, created_at: toDbDate(company.createdAt) });
      return insertTeamMember(trx, owner);
    });
  }

  findCompany(companyId: string): Promise<Company | null> {
    return this.cache.read(`company:${companyId}`, ["companies"], async () => {
      const [row] = await this.knex("companies").where({ id: companyId });
      return row ? toCompany(row) : null;
    });
  }

  async addMember(member: NewTeamMember): Promise<TeamMember> {
    return this.knex.transaction((trx) => insertTeamMember(trx, member));
  }

  async findMember(companyId: string, memberId: string): Promise<TeamMember | null> {
    const row = await selectTeamMembers(this.knex).where({ "m.company_id": companyId, "m.id": memberId }).first();
    return row ? toTeamMember(row) : null;
  }

  async findMemberByEmail(companyId: string, email: string): Promise<TeamMember | null> {
    const row = await selectTeamMembers(this.knex).where({ "m.company_id": companyId, "u.email": email }).first();
    return row ? toTeamMember(row) : null;
  }

  async findMemberOfUser(companyId: string, userId: string): Promise<TeamMember | null> {
    const row = await selectTeamMembers(this.knex).where({ "m.company_id": companyId, "m.user_id": userId }).first();
    return row ? toTeamMember(row) : null;
  }

  async listMembers(companyId: string): Promise<TeamMember[]> {
    const rows = await selectTeamMembers(this.knex)
      .where({ "m.company_id": companyId })
      .orderBy([{ column: "m.created_at" }, { column: "m.id" }]);
    return rows.map(toTeamMember);
  }

  async findFirstMemberWithRole(companyId: string, role: Role): Promise<TeamMember | null> {
    const row = await selectTeamMembers(this.knex)
      .where({ "m.company_id": companyId, "m.role": role })
      .orderBy([{ column: "m.created_at" }, { column: "m.id" }])
      .first();
    return row ? toTeamMember(row) : null;
  }

  async listMemberships(userId: string): Promise<Membership[]> {
    const rows = await this.knex("team_members as m")
      .join("users as u", "u.id", "m.user_id")
      .join("companies as c", "c.id", "m.company_id")
      .where("m.user_id", userId)
      .orderBy([{ column: "m.created_at" }, { column: "m.id" }])
      .select(...teamMemberColumns, "c.id as id", "c.name as name", "c.website_url as website_url", "c.created_at as created_at");
    return rows.map((row) => ({ company: toCompany(row), member: toTeamMember(row) }));
  }
}

/** Adds a member inside `trx`, reusing the user with that email (a person can work in several companies). */
export async function insertTeamMember(trx: Knex.Transaction, member: NewTeamMember): Promise<TeamMember> {
  await trx("users")
    .insert({ id: member.user.id, email: member.user.email, name: member.user.name, created_at: toDbDate(member.user.createdAt) })
    .onConflict("email")
    .ignore();
  const user = await trx("users").where({ email: member.user.email }).first("id");
  await trx("team_members").insert({
    id: member.id,
    company_id: member.companyId,
    user_id: user.id,
    role: member.role,
    created_at: toDbDate(member.createdAt),
  });
  const row = await selectTeamMembers(trx).where({ "m.id": member.id }).first();
  return toTeamMember(row);
}
