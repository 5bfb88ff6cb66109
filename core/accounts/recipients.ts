import { byRoleThenJoined, type AccountMember } from "./model.js";

/**
 * Who receives an account event (spec, Accounts): `owners` (the default, falling back to the
 * admins when the account has no owner), `admins` (owners and admins), `all`, or `none` (the
 * account timeline only).
 */
export const RECIPIENT_OPTIONS = ["owners", "admins", "all", "none"] as const;
export type RecipientOption = (typeof RECIPIENT_OPTIONS)[number];

export const DEFAULT_RECIPIENTS: RecipientOption = "owners";

/** At most this many members receive one account event; `truncated` says when more would have. */
export const MAX_ACCOUNT_EVENT_RECIPIENTS = 1000;

export const isRecipientOption = (value: unknown): value is RecipientOption =>
  typeof value === "string" && (RECIPIENT_OPTIONS as readonly string[]).includes(value);

export interface RecipientSelection {
  readonly recipients: readonly AccountMember[];
  readonly truncated: boolean;
}

export function selectRecipients(members: readonly AccountMember[], option: RecipientOption, limit = MAX_ACCOUNT_EVENT_RECIPIENTS): RecipientSelection {
  const chosen = chooseMembers(members, option).slice().sort(byRoleThenJoined);
  return { recipients: chosen.slice(0, limit), truncated: chosen.length > limit };
}

function chooseMembers(members: readonly AccountMember[], option: RecipientOption): readonly AccountMember[] {
  switch (option) {
    case "none":
      return [];
    case "all":
      return members;
    case "admins":
      return members.filter((m) => m.role === "owner" || m.role === "admin");
    case "owners": {
      const owners = members.filter((m) => m.role === "owner");
      return owners.length > 0 ? owners : members.filter((m) => m.role === "admin");
    }
  }
}
