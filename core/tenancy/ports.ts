import type { Company, Membership, Role, TeamMember, User } from "./model.js";
import { token } from "../shared/token.js";

export interface NewTeamMember {
  readonly id: string;
  readonly companyId: string;
  readonly role: Role;
  readonly createdAt: Date;
  /** The user to attach; created when no user has this email yet. */
  readonly user: User;
}

/** Companies, users and memberships. Member queries always name the company. */
export interface TenancyRepository {
  /** Creates the company and its first (owner) member in one transaction. */
  createCompany(company: Company, owner: NewTeamMember): Promise<TeamMember>;
  findCompany(companyId: string): Promise<Company | null>;
  /** Adds a member; reuses the existing user with that email when there is one. */
  addMember(member: NewTeamMember): Promise<TeamMember>;
  findMember(companyId: string, memberId: string): Promise<TeamMember | null>;
  findMemberByEmail(companyId: string, email: string): Promise<TeamMember | null>;
  findMemberOfUser(companyId: string, userId: string): Promise<TeamMember | null>;
  /** The company's members, oldest first. */
  listMembers(companyId: string): Promise<TeamMember[]>;
  /** The oldest member holding `role` in the company. */
  findFirstMemberWithRole(companyId: string, role: Role): Promise<TeamMember | null>;
  /** Every company the user belongs to, oldest membership first. */
  listMemberships(userId: string): Promise<Membership[]>;
}
export const TenancyRepository = token<TenancyRepository>("lifecycle.TenancyRepository");
