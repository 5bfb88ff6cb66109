import type { Role } from "../tenancy/model.js";
import { ALL_SCOPES, type Scope } from "./scopes.js";

/**
 * The most a team member of each role may do. A key never acts beyond its member's role,
 * even when it was created with more (a member who is demoted loses scopes at once).
 * Marketers run campaigns and content but never move data out of the company, manage the
 * team, or mint keys.
 */
const MARKETER_EXCLUDED: ReadonlySet<Scope> = new Set<Scope>(["data_exports:read", "data_exports:write", "team:manage", "api_keys:manage"]);

const ceilings: Readonly<Record<Role, ReadonlySet<Scope>>> = {
  owner: new Set(ALL_SCOPES),
  admin: new Set(ALL_SCOPES),
  marketer: new Set(ALL_SCOPES.filter((scope) => !MARKETER_EXCLUDED.has(scope))),
};

export const roleCeiling = (role: Role): ReadonlySet<Scope> => ceilings[role];

/** Owners and admins manage the team (invitations, members). */
export const canManageTeam = (role: Role): boolean => role === "owner" || role === "admin";
