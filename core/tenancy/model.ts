/** Companies (workspaces), the people who work in them, and their roles. */
export const ROLES = ["owner", "admin", "marketer"] as const;
export type Role = (typeof ROLES)[number];

export interface Company {
  readonly id: string;
  readonly name: string;
  /** The website it was created for (`https://<domain>`); null when the operator created it. */
  readonly websiteUrl: string | null;
  readonly createdAt: Date;
}

/** A person: one email address, possibly a member of several companies. */
export interface User {
  readonly id: string;
  readonly email: string;
  readonly name: string | null;
  readonly createdAt: Date;
}

/** A user's membership of one company, with a role there. */
export interface TeamMember {
  readonly id: string;
  readonly companyId: string;
  readonly userId: string;
  readonly email: string;
  readonly name: string | null;
  readonly role: Role;
  readonly createdAt: Date;
}

export interface Membership {
  readonly company: Company;
  readonly member: TeamMember;
}
