/** Accounts (organizations) whose members are contacts (spec, Account). */
export const ACCOUNT_ROLES = ["owner", "admin", "member"] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

export type AccountAttributes = Readonly<Record<string, unknown>>;

export interface Account {
  readonly id: string;
  readonly companyId: string;
  /** The caller's organization ID. */
  readonly externalId: string;
  readonly name: string | null;
  readonly domain: string | null;
  readonly attributes: AccountAttributes;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface AccountWithCount extends Account {
  readonly memberCount: number;
}

/** A contact in an account. */
export interface AccountMember {
  readonly subscriberId: string;
  readonly email: string;
  readonly firstName: string | null;
  readonly lastName: string | null;
  readonly role: AccountRole;
  readonly joinedAt: Date;
}

export const ACCOUNT_NOT_FOUND_MESSAGE = "Account not found";

/** Members in the order every list shows them: owners, admins, members, then by joining time. */
export const ROLE_ORDER: Readonly<Record<AccountRole, number>> = { owner: 0, admin: 1, member: 2 };

export const byRoleThenJoined = (a: AccountMember, b: AccountMember): number =>
  ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.joinedAt.getTime() - b.joinedAt.getTime() || a.subscriberId.localeCompare(b.subscriberId);
