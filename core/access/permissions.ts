import type { Role } from "../tenancy/model.js";
import { presetDefinition, type PresetName } from "./presets.js";
import { roleCeiling } from "./role-ceilings.js";
import { ALL_SCOPES, type Scope } from "./scopes.js";

/**
 * What a key may do right now: its selection (all scopes for full access) cut to its
 * member's role ceiling, in catalog order.
 */
export function effectiveScopes(selectedScopes: readonly Scope[] | null, role: Role): Scope[] {
  const ceiling = roleCeiling(role);
  const selected = selectedScopes ? new Set(selectedScopes) : null;
  return ALL_SCOPES.filter((scope) => ceiling.has(scope) && (selected === null || selected.has(scope)));
}

/** The scopes of `required` that `held` lacks, in the order required. */
export const missingScopes = (required: readonly Scope[], held: ReadonlySet<Scope>): Scope[] => required.filter((scope) => !held.has(scope));

/** The error sentence the spec fixes for a missing scope (several are comma-separated). */
export const missingScopeMessage = (missing: readonly Scope[]): string => `API key is missing required scope: ${missing.join(", ")}`;

/** The `permissions` object of the API key resource. */
export interface PermissionsSummary {
  readonly preset: PresetName;
  readonly fullAccess: boolean;
  readonly selectedScopeCount: number;
  readonly currentScopeCount: number;
  readonly description: string;
}

export function summarisePermissions(preset: PresetName, selectedScopes: readonly Scope[] | null, role: Role): PermissionsSummary {
  const selectedScopeCount = selectedScopes ? selectedScopes.length : ALL_SCOPES.length;
  return {
    preset,
    fullAccess: selectedScopes === null,
    selectedScopeCount,
    currentScopeCount: effectiveScopes(selectedScopes, role).length,
    description:
      preset === "custom" ? `Custom selection of ${selectedScopeCount} permission${selectedScopeCount === 1 ? "" : "s"}` : presetDefinition(preset).description,
  };
}
